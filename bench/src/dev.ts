// Development probe: one contention run per chosen library. Not part of the report.
import { LIBRARIES } from "./libraries/index.ts";
import { strategyTrace } from "./libraries/edgelock.ts";
import { startNetwork } from "./net/network.ts";
import { runContention } from "./run/contention.ts";

const only = process.argv[2] ?? "edgelock";
const n = Number(process.argv[3] ?? 8);
const irregular = process.argv.includes("--irregular");
const r = Number(process.env.R ?? 20);
const network = await startNetwork();
try {
  for (const lib of LIBRARIES.filter((l) => l.name.includes(only))) {
    const res = await runContention(
      network,
      lib,
      { workers: n, sections: Number(process.env.K ?? 20), csMs: 10, irregular, waitMs: 60_000 },
      { ms: r, jitterMs: Number(process.env.J ?? 0) },
    );
    const m = res.metrics;
    if (process.env["BENCH_TRACE"]) {
      for (const t of strategyTrace.slice(-60)) {
        const h = t.hint;
        console.log(
          `  att ${h.attempt} pos ${h.position} mean ${h.meanHoldMs} dev ${h.holdDevMs} age ${h.holdAgeMs} rtt ${h.rttMs?.toFixed(1)} pushed ${h.pushed} -> ${t.delay.toFixed(1)}`,
        );
      }
      strategyTrace.length = 0;
    }
    console.log(
      `${lib.name.padEnd(24)} eff ${m.efficiency.toFixed(3)} req/CS ${res.requestsPerCs.toFixed(2)} cmd/CS ${res.commandsPerCs.toFixed(2)} gap50 ${m.gapP50.toFixed(1)} wait50 ${m.waitP50.toFixed(0)} p99 ${m.waitP99.toFixed(0)} viol ${m.violations} fail ${m.failedAcquires} spread ${m.shareSpread.toFixed(2)} retake ${m.retakeRate.toFixed(2)}`,
    );
  }
} finally {
  await network.close();
}
