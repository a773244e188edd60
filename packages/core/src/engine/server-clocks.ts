import type { Backend } from "../backend/backend.ts";
import { now } from "./clock.ts";
import { ServerClock } from "./server-clock.ts";

/**
 * Who answered a request: `undefined` the one server of a single-node backend; a node's address
 * on a cluster; `null` unknown (the request was redirected, MOVED or ASK, and ran on a node the
 * client did not pick), so its server time may belong to either clock and is not used.
 */
export type AnsweredBy = string | undefined | null;

/**
 * One server-time estimate per clock a client talks to: a single server has one; each node of a
 * cluster has its own (node clocks may differ, so time read on one must never bound a deadline
 * judged by another). Each database of a quorum has its own client, so its own registry.
 */
export class ServerClocks {
  readonly #wall: () => number;
  readonly #errorMs: number;
  readonly #single: ServerClock;
  readonly #byNode = new Map<string, ServerClock>();

  constructor(wall: () => number, errorMs: number) {
    this.#wall = wall;
    this.#errorMs = errorMs;
    this.#single = new ServerClock(wall, errorMs);
  }

  /** The estimate of `node`'s clock (`undefined`: the single server); a new node starts unknown. */
  of(node: string | undefined): ServerClock {
    if (node === undefined) return this.#single;
    let clock = this.#byNode.get(node);
    if (clock === undefined) {
      clock = new ServerClock(this.#wall, this.#errorMs);
      this.#byNode.set(node, clock);
    }
    return clock;
  }

  /** Feeds a reply's server time to the clock of whoever answered; an unknown answerer's is dropped. */
  observe(at: AnsweredBy, serverMs: number, sentAt: number, recvAt = now()): void {
    if (at === null) return;
    this.of(at).observe(serverMs, sentAt, recvAt);
  }

  /** How many node clocks this client has met (0 on a single server). */
  get nodes(): number {
    return this.#byNode.size;
  }
}

/** What picking a clock needs of a client. */
export interface ClockSource {
  readonly backend: Backend;
  readonly clocks: ServerClocks;
}

/**
 * The estimate of the clock that will judge a call whose first key is `key`: on a cluster, that
 * of the node serving the key's slot now (by the client's slot map); else the single server's.
 */
export function clockFor(ctx: ClockSource, key: string): ServerClock {
  return ctx.clocks.of(ctx.backend.nodeOf?.(key));
}

/**
 * The latest deadline any copy of `op` can carry, on the clock of the node that serves `key`
 * (the operation may never have been sent: then the retry window from now stands in).
 */
export function latestDeadline(
  ctx: ClockSource & { readonly policy: { readonly retryWindowMs: number } },
  op: { readonly deadline: number | undefined },
  key: string,
): number {
  return op.deadline ?? Math.ceil(clockFor(ctx, key).upper() + ctx.policy.retryWindowMs);
}
