import {
  createClient,
  LockError,
  resolveBackend,
  type EdgelockClient,
  type LockEvent,
} from "@edgelock/core";
import { Redis } from "@upstash/redis";
import type { Recorder } from "../history/recorder.ts";
import { runOp } from "./op-context.ts";
import { onTimePush, type PushFaults } from "./push-faults.ts";
import { recordingBackend } from "./recording-backend.ts";

/** How every worker's client is configured (small times, so faults bite within a short run). */
export interface ClientSettings {
  readonly url: string;
  readonly token: string;
  readonly prefix: string;
  readonly leaseMs: number;
  readonly requestTimeoutMs: number;
  readonly retryWindowMs: number;
  /** The restart quarantine (client option `quarantineMs`); absent: off. */
  readonly quarantineMs?: number;
}

export type Outcome<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: unknown; readonly code: string };

/** One worker's own client (its own `@upstash/redis` instance), whose calls and events are recorded. */
export interface WorkerClient {
  readonly id: string;
  readonly client: EdgelockClient;
  /** Runs one public call; a typed error is an outcome, anything else is recorded as untyped. */
  track<T>(operation: string, fn: () => Promise<T>): Promise<Outcome<T>>;
}

/** `push`: how the fault driver bends this client's streams (on time and whole unless told). */
export function makeWorkerClient(
  id: string,
  settings: ClientSettings,
  recorder: Recorder,
  push: PushFaults = onTimePush(),
): WorkerClient {
  const { hits } = recorder;
  const upstash = new Redis({ url: settings.url, token: settings.token, retry: false });
  const { events } = recorder.history;
  const onEvent = (event: LockEvent) => {
    events[event.type] = (events[event.type] ?? 0) + 1;
    if (
      event.type === "retried" ||
      event.type === "outcome-unknown" ||
      event.type === "settled" ||
      event.type === "release-failed" ||
      event.type === "renew-failed" ||
      event.type === "background-failed" ||
      event.type === "lost"
    ) {
      hits.surface(event.error, event.type);
    }
  };
  const client = createClient({
    redis: recordingBackend(resolveBackend(upstash), id, hits, {
      faults: push,
      counts: recorder.history.push,
    }),
    prefix: settings.prefix,
    leaseMs: settings.leaseMs,
    requestTimeoutMs: settings.requestTimeoutMs,
    retryWindowMs: settings.retryWindowMs,
    ...(settings.quarantineMs === undefined ? {} : { quarantineMs: settings.quarantineMs }),
    onEvent,
  });
  return {
    id,
    client,
    async track(operation, fn) {
      const { context, result } = runOp(operation, fn);
      try {
        return { ok: true, value: await result };
      } catch (error) {
        const code = error instanceof LockError ? error.code : "UNTYPED";
        hits.surface(error, `thrown:${code}`);
        hits.surfaceAll(context.hits, `thrown:${code}`);
        if (code === "UNTYPED") recorder.untyped(id, operation, error);
        return { ok: false, error, code };
      }
    },
  };
}
