import { LeaseLostError } from "@edgelock/core";
import type { Recorder } from "../history/recorder.ts";
import type { Primitive, SectionMode, SectionRecord } from "../history/types.ts";
import { pause } from "./pause.ts";
import { finishSection } from "./finish.ts";
import type { Worker } from "./world.ts";

/** A hold as a section sees it, whatever the primitive. */
export interface Held {
  readonly fences: Readonly<Record<string, number>>;
  /** Aborts when the hold is lost (a Semaphore's only before its pushed grant's claim lands). */
  readonly signal?: AbortSignal;
  release(): Promise<void>;
  /** The holder's belief and the server's lease, for the lease probe (leased kinds that have both). */
  readonly lease?: LeaseReadings;
}

export interface LeaseReadings {
  /** How long the holder believes its lease lasts from now, ms. */
  believedMs(): number;
  /** One request: the server's remaining lease of whoever holds, ms (0 when free). */
  serverMs(): Promise<number>;
}

export interface SectionSpec {
  readonly primitive: Primitive;
  readonly mode: SectionMode;
  readonly resources: readonly string[];
  readonly capacity: number;
  acquire(): Promise<Held | null>;
  /** Extra work inside the section (reentrancy checks), after the first write. */
  readonly inner?: (section: SectionRecord, held: Held) => Promise<void>;
  /**
   * Retry a release whose outcome stayed unknown or that did not apply (`BackendError`): unleased
   * permits do not run out on their own.
   */
  readonly retryUnknownRelease?: boolean;
}

/**
 * One critical section: acquire, then a few writes to the fenced resources (exclusive), reads of
 * them (shared) or just time (counted), stopping as soon as the hold's signal says it was lost,
 * then release. Everything is recorded.
 */
export async function runSection(worker: Worker, spec: SectionSpec): Promise<void> {
  const { wc, rng, world } = worker;
  const { recorder } = world;
  const acquireSeq = recorder.next();
  const got = await wc.track(`${spec.primitive} acquire`, () => spec.acquire());
  if (!got.ok || got.value === null) return;
  const held = got.value;
  const section = recorder.enter({
    acquireSeq,
    worker: worker.id,
    primitive: spec.primitive,
    mode: spec.mode,
    resources: spec.resources,
    capacity: spec.capacity,
    fences: held.fences,
  });
  watchSignal(recorder, section, held.signal);
  if (held.lease && rng.chance(world.leaseProbeChance))
    await probeLease(worker, section, held.lease);
  // Most sections are short; some outlast renewals of the lease, and Redis restarts.
  const long = rng.chance(0.12);
  const steps = rng.int(1, 3);
  for (let step = 0; step < steps && section.toldSeq === undefined; step++) {
    await useResources(worker, section, spec, held);
    if (step === 0 && spec.inner && section.toldSeq === undefined) await spec.inner(section, held);
    await pause(long ? rng.int(200, 1_000) : rng.int(1, 20), held.signal);
  }
  if (spec.mode === "shared" && section.toldSeq === undefined)
    await useResources(worker, section, spec, held);
  recorder.exit(section);
  await finishSection(worker, section, spec, held);
}

/**
 * Reads the holder's belief, asks the server for its lease, and reads the belief again (see
 * `LeaseProbeRecord`). Not recorded when the request failed, or when the holder was told of a
 * loss meanwhile: the lock is then another holder's, or nobody's, and the belief ended with the
 * signal.
 */
async function probeLease(worker: Worker, section: SectionRecord, lease: LeaseReadings) {
  if (section.toldSeq !== undefined) return;
  const readAt = performance.now();
  const believedMs = lease.believedMs();
  const server = await worker.wc.track(`${section.primitive} remainingMs`, () => lease.serverMs());
  const believedAfterMs = lease.believedMs();
  const elapsedMs = performance.now() - readAt;
  if (!server.ok || section.toldSeq !== undefined) return;
  worker.world.recorder.leaseProbe(section, {
    believedMs,
    believedAfterMs,
    serverMs: server.value,
    elapsedMs,
  });
}

async function useResources(
  worker: Worker,
  section: SectionRecord,
  spec: SectionSpec,
  held: Held,
): Promise<void> {
  const { recorder, resources } = worker.world;
  for (const resource of spec.resources) {
    if (section.toldSeq !== undefined) return;
    if (spec.mode === "shared") recorder.read(section, resource, await resources.version(resource));
    const fence = held.fences[resource];
    if (spec.mode === "exclusive" && fence !== undefined)
      recorder.write(section, resource, fence, await resources.write(resource, fence));
  }
}

/** The holder learns of a loss the moment its signal aborts. */
export function watchSignal(
  recorder: Recorder,
  section: SectionRecord,
  signal: AbortSignal | undefined,
): void {
  if (!signal) return;
  const tell = () => {
    const reason: unknown = signal.reason;
    recorder.hits.surface(reason, "signal");
    recorder.tell(
      section,
      `signal:${reason instanceof LeaseLostError ? reason.reason : String(reason)}`,
    );
  };
  if (signal.aborted) tell();
  else signal.addEventListener("abort", tell, { once: true });
}
