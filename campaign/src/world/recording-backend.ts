import { TransportError, type Backend } from "@edgelock/core";
import type { HitLedger } from "../history/hit-ledger.ts";
import type { HitKind } from "../history/types.ts";
import { currentOp } from "./op-context.ts";
import { cutOff, faultyPush, type PushCounts, type PushFaults } from "./push-faults.ts";
import { commandName } from "./script-names.ts";

/** Statuses the driver asks the rest-server for, so a client can tell which fault hit it. */
export const FAIL_BEFORE_STATUS = 521;
export const FAIL_AFTER_STATUS = 522;

/**
 * Wraps one worker's backend: every request that fails at the transport level is recorded as a
 * hit (which fault it looks like, which script it ran, which public call made it) before the
 * error goes on to the engine, unchanged. Its streams' messages come late or are lost as `push`
 * says (the fault driver's late-push episodes), counted in `pushCounts`.
 */
export function recordingBackend(
  inner: Backend,
  worker: string,
  ledger: HitLedger,
  push: { readonly faults: PushFaults; readonly counts: PushCounts },
): Backend {
  const wrapped: Backend = {
    kind: inner.kind,
    async command(args, signal) {
      const command = commandName(args);
      try {
        if (cutOff(push.faults))
          throw new TransportError("cut off after a push message (campaign fault)", {
            ambiguous: false,
            status: 503,
          });
        return await inner.command(args, signal);
      } catch (error) {
        if (error instanceof TransportError) {
          const hit = ledger.add(worker, classify(error, signal), command, error);
          currentOp()?.hits.push(hit);
        }
        throw error;
      }
    },
  };
  return Object.assign(wrapped, faultyPush(inner, push.faults, push.counts));
}

function classify(error: TransportError, signal: AbortSignal): HitKind {
  if (error.status === FAIL_BEFORE_STATUS) return "5xx-before";
  if (error.status === FAIL_AFTER_STATUS) return "5xx-after";
  if (error.status === 503) return "unavailable";
  if (error.status !== undefined) return "5xx";
  if (!signal.aborted) return "dropped";
  const reason: unknown = signal.reason;
  return reason instanceof Error && /timed out/.test(reason.message) ? "timeout" : "cancelled";
}
