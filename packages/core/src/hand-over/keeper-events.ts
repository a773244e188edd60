import type { KeeperStatus } from "./protocol.ts";

/** What a budgeted keeper reports through `onEvent`. */
export type KeeperEvent =
  /** The lease went to the Durable Object keeper before this invocation's budget ran out. */
  | { readonly type: "handed-off"; readonly name: string; readonly status: KeeperStatus }
  /** The hand-over failed: renewals stop here, the lease runs out and `held.signal` aborts at its deadline. */
  | { readonly type: "handoff-failed"; readonly name: string; readonly error: unknown }
  /** No hand-over configured: renewals stop, the lease runs out and `held.signal` aborts at its deadline. */
  | { readonly type: "budget-exhausted"; readonly name: string }
  /** The hold ended in this invocation after the hand-over: the keeper was told to release. */
  | {
      readonly type: "release-forwarded";
      readonly name: string;
      readonly status?: KeeperStatus;
      readonly error?: unknown;
    };

export type KeeperEventSink = (event: KeeperEvent) => void;

/** A throwing logger must not break a renewal loop. */
export function safeSink(onEvent: KeeperEventSink | undefined): KeeperEventSink {
  return (event) => {
    try {
      onEvent?.(event);
    } catch {
      // the caller's bug; the keeper keeps its promises regardless
    }
  };
}
