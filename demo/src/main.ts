/**
 * The demo: the Cloudflare Worker example (examples/cloudflare-worker) runs locally in workerd,
 * against a local Redis behind our Upstash-compatible REST server (or a real Upstash database when
 * credentials are set). Concurrent requests increment a shared counter through an unlocked route
 * and through a route that holds an edgelock Lock; the demo prints what the lock prevented and
 * what it cost.
 */
import { randomBytes } from "node:crypto";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runWorker } from "@edgelock/testkit/worker";
import { fireIncrements, readCounter } from "./requests.ts";
import { openTarget } from "./target.ts";

const REQUESTS = Number(process.env["DEMO_REQUESTS"] ?? 20);
const exampleRoot = join(
  dirname(fileURLToPath(import.meta.url)),
  "../../examples/cloudflare-worker",
);

async function main(): Promise<void> {
  const target = await openTarget(process.env);
  console.log(
    `edgelock demo: ${REQUESTS} concurrent requests to a Worker, each adds 1 to a counter`,
  );
  console.log(
    `Worker: examples/cloudflare-worker, built with wrangler and served by workerd (Miniflare)`,
  );
  console.log(`Redis:  ${target.description}\n`);
  const worker = await runWorker(
    exampleRoot,
    {
      UPSTASH_REDIS_REST_URL: target.url,
      UPSTASH_REDIS_REST_TOKEN: target.token,
      EDGELOCK_KEEPER_SECRET: randomBytes(16).toString("hex"),
      MAX_HOLD_MS: "60000",
    },
    { LEASE_KEEPER: "LeaseKeeper" },
  );
  try {
    const run = randomBytes(4).toString("hex");
    let before = target.requests();
    const unsafe = await fireIncrements(worker.url, `plain-${run}`, "increment-unsafe", REQUESTS);
    report(
      "without a lock",
      await readCounter(worker.url, `plain-${run}`),
      unsafe.refused,
      before,
      target.requests(),
    );

    before = target.requests();
    const locked = await fireIncrements(worker.url, `locked-${run}`, "increment", REQUESTS);
    const value = await readCounter(worker.url, `locked-${run}`);
    report("with edgelock", value, locked.refused, before, target.requests());

    const fences = [...locked.fences].sort((a, b) => a - b);
    const distinct = new Set(fences).size === fences.length;
    console.log(
      `\nfencing tokens (one per hold, sorted): ${fences.slice(0, 2).join(", ")} … ${fences.at(-1)}`,
    );
    console.log(
      `  all distinct: ${distinct ? "yes" : "NO"}; a resource that checks them rejects any older holder`,
    );
    if (value !== REQUESTS - locked.refused || !distinct) process.exitCode = 1;
  } finally {
    await worker.close();
    await target.close();
  }
}

function report(
  label: string,
  value: number,
  refused: number,
  before?: number,
  after?: number,
): void {
  const applied = REQUESTS - refused;
  const lost = applied - value;
  const cost =
    before === undefined || after === undefined
      ? "REST requests: not measured on a remote database"
      : `${after - before} REST requests (${((after - before) / REQUESTS).toFixed(1)} per request, incl. the counter's GET and SET)`;
  const busy = refused > 0 ? `, ${refused} answered 423 (lock busy past the wait budget)` : "";
  console.log(
    `${label.padEnd(15)} counter = ${String(value).padStart(3)}, lost updates = ${String(lost).padStart(3)}${busy}; ${cost}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
