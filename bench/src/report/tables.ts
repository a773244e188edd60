import type { RoundTripOverhead } from "../net/round-trip.ts";
import type { ContentionResult } from "../run/contention.ts";
import { C } from "../scenarios/suite.ts";
import type { OverrunResult } from "../scenarios/overrun.ts";
import type { PushRefusedResult } from "../scenarios/push-refused.ts";
import type { SaturationResult } from "../scenarios/saturation.ts";
import type { CommandShares } from "../scenarios/command-shares.ts";
import type { Attribution } from "../net/command-attribution.ts";
import type { SizeReport } from "../size/main.ts";
import type { SuiteResults } from "../scenarios/suite.ts";
import type { UncontendedResult } from "../scenarios/uncontended.ts";

const f2 = (v: number) => (Number.isFinite(v) ? v.toFixed(2) : "∞");
const ms = (v: number) => `${Math.round(v)}`;
const unit = (r: { transport: "rest" | "tcp" }) => (r.transport === "rest" ? "HTTP" : "wire");

export function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [line(head), line(head.map((_, i) => (i === 0 ? "---" : "---:"))), ...rows.map(line)].join(
    "\n",
  );
}

/** Efficiency against the round trip this machine really gave (R plus the measured excess). */
export function measuredEfficiency(r: ContentionResult, overhead: RoundTripOverhead): number {
  const realR =
    r.latency.ms + r.latency.jitterMs / 2 + (r.transport === "rest" ? overhead.rest : overhead.tcp);
  return (r.metrics.throughput / 1000) * (C + realR);
}

/** Every figure of one scenario, one row per library. */
export function contentionTable(
  rows: readonly ContentionResult[],
  overhead: RoundTripOverhead,
): string {
  return table(
    [
      "library",
      "efficiency",
      "eff. at measured RTT",
      "CS/s",
      "requests/CS",
      "Redis cmds/CS",
      "wait p50 ms",
      "wait p99 ms",
      "max wait ms",
      "hand-off gap p50 ms",
      "share spread",
      "re-take",
      "violations",
      "failed",
    ],
    rows.map((r) => {
      const m = r.metrics;
      return [
        r.library,
        `**${f2(m.efficiency)}**`,
        f2(measuredEfficiency(r, overhead)),
        f2(m.throughput),
        `**${f2(r.requestsPerCs)}** ${unit(r)}`,
        f2(r.commandsPerCs),
        ms(m.waitP50),
        ms(m.waitP99),
        ms(m.waitMax),
        ms(m.gapP50),
        f2(m.shareSpread),
        f2(m.retakeRate),
        String(m.violations),
        String(m.failedAcquires),
      ];
    }),
  );
}

/** Efficiency (and at measured R) and requests/CS for every scenario side by side. */
export function scenarioTable(results: SuiteResults, overhead: RoundTripOverhead): string {
  const labels = Object.keys(results.contention);
  const libraries = results.contention[labels[0]!]?.map((r) => r.library) ?? [];
  return table(
    ["library", ...labels],
    libraries.map((name) => [
      name,
      ...labels.map((l) => {
        const r = results.contention[l]!.find((x) => x.library === name)!;
        return `${f2(r.metrics.efficiency)} (${f2(measuredEfficiency(r, overhead))}) @ ${f2(r.requestsPerCs)}`;
      }),
    ]),
  );
}

export function sweepTable(results: SuiteResults, pick: (r: ContentionResult) => string): string {
  const sizes = [...results.sweep.keys()];
  const libraries = results.sweep.get(sizes[0]!)?.map((r) => r.library) ?? [];
  return table(
    ["library", ...sizes.map((n) => `N=${n}`)],
    libraries.map((name) => [
      name,
      ...sizes.map((n) => pick(results.sweep.get(n)!.find((r) => r.library === name)!)),
    ]),
  );
}

export function uncontendedTable(rows: readonly UncontendedResult[], rttMs: number): string {
  const cell = (c: { requests: number; latencyMs: number } | undefined) =>
    c ? `${c.requests} · ${(c.latencyMs / rttMs).toFixed(1)} R` : "n/a";
  return table(
    ["library", "counted as", "acquire", "renew", "release"],
    rows.map((r) => [r.library, unit(r), cell(r.acquire), cell(r.renew), cell(r.release)]),
  );
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** Each Worker's bundle against its budget and issue 14's goal. */
export function sizeTable(rows: readonly SizeReport[]): string {
  return table(
    ["Worker", "minified", "min + gzip", "budget (check:sizes)", "goal"],
    rows.map((r) => [r.entry, kb(r.minified), `**${kb(r.gzipped)}**`, kb(r.budget), kb(r.goal)]),
  );
}

/**
 * Minified bytes each module puts in each Worker's bundle, and its share of the gzipped size
 * (estimated in proportion to its minified bytes: gzip does not split by module).
 */
export function moduleSizeTable(rows: readonly SizeReport[]): string {
  const modules = [...new Set(rows.flatMap((r) => r.modules.map((m) => m.module)))];
  const bytes = (r: SizeReport, module: string) =>
    r.modules.find((m) => m.module === module)?.minified ?? 0;
  const total = (module: string) => rows.reduce((n, r) => n + bytes(r, module), 0);
  modules.sort((a, b) => total(b) - total(a));
  return table(
    ["module", ...rows.map((r) => r.entry)],
    modules.map((module) => [
      module,
      ...rows.map((r) => {
        const b = bytes(r, module);
        return b === 0 ? "—" : `${kb(b)} (~${kb((b / r.minified) * r.gzipped)} gz)`;
      }),
    ]),
  );
}

export function overrunTable(rows: readonly OverrunResult[]): string {
  return table(
    [
      "library",
      "holder told",
      "both working ms",
      "second holder in, ms after the lease ended",
      "requests",
    ],
    rows.map((r) => [
      r.library,
      r.told ? "yes (signal)" : "no",
      ms(r.overlapMs),
      ms(r.takeoverMs),
      String(r.requests),
    ]),
  );
}

/** Push offered, refused and absent on one workload: what a refused stream costs. */
export function pushRefusedTable(
  rows: readonly PushRefusedResult[],
  overhead: RoundTripOverhead,
): string {
  return table(
    [
      "library",
      "efficiency",
      "eff. at measured RTT",
      "requests/CS",
      "refused stream attempts/CS",
      "hand-off gap p50 ms",
      "violations",
      "failed",
    ],
    rows.map(({ result: r, refusedPerCs }) => {
      const m = r.metrics;
      const realR = r.latency.ms + overhead.rest;
      return [
        r.library,
        `**${f2(m.efficiency)}**`,
        f2((m.throughput / 1000) * (r.workload.csMs + realR)),
        `**${f2(r.requestsPerCs)}** ${unit(r)}`,
        refusedPerCs.toFixed(3),
        ms(m.gapP50),
        String(m.violations),
        String(m.failedAcquires),
      ];
    }),
  );
}

/**
 * edgelock with push on the irregular workload at every N it was run (N = 12 from the
 * refused-push scenario, N = 2 and 64 from the scale one), smallest first, beside issue 14's goals.
 */
export function pushScaleTable(
  rows: readonly ContentionResult[],
  overhead: RoundTripOverhead,
): string {
  const goal = (n: number) =>
    n === 2
      ? "no worse than 0.75–0.79"
      : n === 12
        ? "≥ 0.90 @ ≤ 4.0 requests/CS"
        : "≤ 4.0 requests/CS";
  return table(
    [
      "N",
      "efficiency",
      "eff. at measured RTT",
      "requests/CS",
      "hand-off gap p50 ms",
      "violations",
      "failed",
      "goal",
    ],
    [...rows]
      .sort((a, b) => a.workload.workers - b.workload.workers)
      .map((r) => {
        const m = r.metrics;
        const realR = r.latency.ms + overhead.rest;
        return [
          String(r.workload.workers),
          `**${f2(m.efficiency)}**`,
          f2((m.throughput / 1000) * (r.workload.csMs + realR)),
          `**${f2(r.requestsPerCs)}** ${unit(r)}`,
          ms(m.gapP50),
          String(m.violations),
          String(m.failedAcquires),
          goal(r.workload.workers),
        ];
      }),
  );
}

/**
 * What each library's critical sections cost Redis itself (one scenario): every command Redis
 * executed (inside scripts too), the µs its scripts took and redis-server's CPU, against
 * redis-semaphore's (the Lua-based peer).
 */
export function redisCostTable(rows: readonly ContentionResult[]): string {
  const peer = rows.find((r) => r.library.startsWith("redis-semaphore"));
  return table(
    [
      "library",
      "Redis cmds/CS (inside scripts too)",
      "script µs/CS",
      "other cmds µs/CS",
      "Redis CPU µs/CS",
      "CPU ÷ redis-semaphore's",
    ],
    rows.map((r) => [
      r.library,
      r.redisCallsPerCs.toFixed(1),
      r.scriptUsecPerCs.toFixed(0),
      r.otherUsecPerCs.toFixed(0),
      r.cpuUsecPerCs.toFixed(0),
      peer ? f2(r.cpuUsecPerCs / peer.cpuUsecPerCs) : "—",
    ]),
  );
}

/** The saturation scenario: uncontended pairs per second, and what each cost Redis. */
export function saturationTable(rows: readonly SaturationResult[]): string {
  return table(
    [
      "library",
      "pairs/s",
      "Redis busy (share of a core)",
      "Redis cmds/pair",
      "script µs/pair",
      "Redis CPU µs/pair",
      "failed",
    ],
    rows.map((r) => [
      r.library,
      r.saturated
        ? `**${Math.round(r.pairsPerS)}**`
        : `(${Math.round(r.pairsPerS)}: not saturated)`,
      r.redisCore.toFixed(2),
      r.commandsPerPair.toFixed(1),
      r.scriptUsecPerPair.toFixed(0),
      r.cpuUsecPerPair.toFixed(0),
      `${r.failed}`,
    ]),
  );
}

/** Each primitive's commands: script calls, the protocol's share, its own (goals: 10 and 18). */
export function commandSharesTable(rows: readonly CommandShares[]): string {
  const cells = (a: Attribution | undefined) =>
    a === undefined
      ? ["—", "—", "—", "—"]
      : [`${a.calls}`, `${a.protocol}`, `**${a.own}**`, `${a.calls + a.protocol + a.own}`];
  return table(
    [
      "primitive",
      "uncontended: calls",
      "protocol",
      "own",
      "total",
      "contended, per section: calls",
      "protocol",
      "own",
      "total",
    ],
    rows.map((r) => [r.primitive, ...cells(r.uncontended), ...cells(r.contended)]),
  );
}
