import type { Recorder } from "../../history/recorder.ts";
import type { LatchCall, LatchRoundRecord } from "../../history/types.ts";
import type { WorkerClient } from "../../world/worker-client.ts";
import { pause } from "../pause.ts";
import type { Worker } from "../world.ts";
import type { Activity } from "./activity.ts";

const READ_ATTEMPTS = 20;
const EXTRA_CALLS = 10;

/**
 * One round of a CountDownLatch, coordinated by this worker: set a count, have that many
 * countDown calls made from random workers' clients at once while another client awaits the
 * latch, then read the count back and count down whatever did not land until it is open.
 */
export const latchActivity: Activity = {
  kind: "count-down-latch",
  weight: 1,
  async run(worker) {
    const { rng, world } = worker;
    const name = rng.pick(world.names.latches);
    if (world.latchesBusy.has(name)) return;
    world.latchesBusy.add(name);
    try {
      await runRound(worker, name);
    } finally {
      world.latchesBusy.delete(name);
    }
  },
};

async function runRound(worker: Worker, name: string): Promise<void> {
  const { rng, world, wc } = worker;
  const { recorder } = world;
  const count = rng.int(2, 5);
  const set = await wc.track("latch trySetCount", () =>
    wc.client.countDownLatch(name).trySetCount(count),
  );
  if (!set.ok || !set.value) return void (await drain(wc, name));
  const round = recorder.latchRound(`latch:${name}`, count);
  const clients = () => rng.pick(world.workers).wc;
  const calls = Array.from({ length: count }, async () => {
    await pause(rng.int(0, 30));
    await countDown(clients(), recorder, round, name);
  });
  const waiter = awaitOpen(clients(), recorder, round, name);
  await Promise.all([...calls, waiter]);
  let final = await readCount(wc, name);
  for (let extra = 0; final !== undefined && final > 0 && extra < EXTRA_CALLS; extra++) {
    await countDown(wc, recorder, round, name);
    final = await readCount(wc, name);
  }
  if (final !== undefined) round.finalCount = final;
  round.endSeq = recorder.next();
}

async function countDown(
  wc: WorkerClient,
  recorder: Recorder,
  round: LatchRoundRecord,
  name: string,
): Promise<void> {
  const call: LatchCall = { startSeq: recorder.next() };
  round.calls.push(call);
  const result = await wc.track("latch countDown", () =>
    wc.client.countDownLatch(name).countDown(),
  );
  call.endSeq = recorder.next();
  if (result.ok) {
    call.outcome = "counted";
    call.remaining = result.value;
  } else call.outcome = result.code === "OUTCOME_UNKNOWN" ? "unknown" : "failed";
}

async function awaitOpen(
  wc: WorkerClient,
  recorder: Recorder,
  round: LatchRoundRecord,
  name: string,
): Promise<void> {
  const startSeq = recorder.next();
  const result = await wc.track("latch await", () =>
    wc.client.countDownLatch(name).await({ waitMs: 3_000 }),
  );
  if (result.ok)
    recorder.history.latchAwaits.push({
      round: round.id,
      startSeq,
      endSeq: recorder.next(),
      opened: result.value,
    });
}

/** The count, read until a read succeeds (reads are retried by the engine; faults may outlast that). */
async function readCount(wc: WorkerClient, name: string): Promise<number | undefined> {
  for (let attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
    const read = await wc.track("latch getCount", () => wc.client.countDownLatch(name).getCount());
    if (read.ok) return read.value;
    await pause(100);
  }
  return undefined;
}

/** A latch left counting by a round whose set was in doubt: count it down, unrecorded, so rounds can go on. */
async function drain(wc: WorkerClient, name: string): Promise<void> {
  for (let i = 0; i < EXTRA_CALLS; i++) {
    const left = await readCount(wc, name);
    if (left === undefined || left === 0) return;
    await wc.track("latch countDown (drain)", () => wc.client.countDownLatch(name).countDown());
  }
}
