/**
 * The demo: a few dozen concurrent invocations add 1 to a shared counter, first without a lock,
 * then inside an edgelock Lock, and it prints what the lock prevented and what it cost.
 */
import { randomBytes } from "node:crypto";
import { incrementLocked, incrementUnlocked, type Invocation } from "./counter.ts";
import { openTarget } from "./target.ts";
import { Redis } from "@upstash/redis";

const INVOCATIONS = Number(process.env["DEMO_INVOCATIONS"] ?? 30);
const WORK_MS = 5;

async function main(): Promise<void> {
  const target = await openTarget(process.env);
  const run = randomBytes(4).toString("hex");
  const admin = new Redis({ url: target.url, token: target.token });
  console.log(`edgelock demo: ${INVOCATIONS} concurrent invocations, each adds 1 to a counter`);
  console.log(`talking to ${target.description}\n`);
  try {
    const base: Omit<Invocation, "key"> = { url: target.url, token: target.token, workMs: WORK_MS };

    const plainKey = `demo:${run}:counter:plain`;
    let before = target.requests();
    await Promise.all(Array.from({ length: INVOCATIONS }, () => incrementUnlocked({ ...base, key: plainKey })));
    const plain = Number((await admin.get<number>(plainKey)) ?? 0);
    report("without a lock", plain, before, target.requests());

    const lockedKey = `demo:${run}:counter:locked`;
    before = target.requests();
    const fences = await Promise.all(
      Array.from({ length: INVOCATIONS }, () => incrementLocked({ ...base, key: lockedKey }, "counter", `demo-${run}`)),
    );
    const locked = Number((await admin.get<number>(lockedKey)) ?? 0);
    report("with edgelock", locked, before, target.requests());

    const sorted = [...fences].sort((a, b) => a - b);
    const distinct = new Set(fences).size === fences.length;
    console.log(`\nfencing tokens (one per hold, sorted): ${sorted.slice(0, 3).join(", ")} … ${sorted.at(-1)}`);
    console.log(`  all distinct: ${distinct ? "yes" : "NO"}; a guarded resource would reject any older token`);
    await admin.del(plainKey, lockedKey);
    if (locked !== INVOCATIONS || !distinct) process.exitCode = 1;
  } finally {
    await target.close();
  }
}

function report(label: string, value: number, before: number | undefined, after: number | undefined): void {
  const lost = INVOCATIONS - value;
  const requests =
    before === undefined || after === undefined
      ? "requests: not measured on a remote database"
      : `${after - before} HTTP requests (${((after - before) / INVOCATIONS).toFixed(1)} per invocation, including the counter's GET and SET)`;
  console.log(`${label.padEnd(15)} counter = ${String(value).padStart(3)}, lost updates = ${String(lost).padStart(3)}; ${requests}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
