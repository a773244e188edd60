import { now } from "../engine/clock.ts";
import { maskId } from "../ids.ts";
import { LeaseState } from "../lease/lease-state.ts";
import type { SerializedLease } from "./types.ts";
import { opsOf } from "./flavor.ts";
import type { LockRef } from "./ops.ts";

export interface HoldInit {
  readonly fence: number;
  readonly sentAt: number;
  readonly confirmedMs: number;
  readonly leaseMs: number;
  readonly keepAlive: boolean;
  readonly maxHoldMs: number | undefined;
}

/**
 * One acquisition (one fence) as seen by one handle: the lease shared by its nested holds, and
 * the keeper task that renews it. It ends when its last `HeldLock` is released or the lease is lost.
 */
export class Hold {
  readonly ref: LockRef;
  readonly fence: number;
  readonly lease: LeaseState;
  leaseMs: number;
  #views = 0;
  readonly #stop = new AbortController();
  readonly #startedAt: number;
  readonly #maxHoldMs: number | undefined;
  readonly #onEnd: () => void;

  constructor(ref: LockRef, init: HoldInit, onEnd: () => void) {
    this.ref = ref;
    this.fence = init.fence;
    this.leaseMs = init.leaseMs;
    this.#startedAt = init.sentAt;
    this.#maxHoldMs = init.maxHoldMs;
    this.#onEnd = onEnd;
    this.lease = new LeaseState(ref.name, init.sentAt, init.confirmedMs, (error) => {
      ref.ctx.emit({ type: "lost", name: ref.name, fence: init.fence, reason: error.reason, error });
      this.#close();
    });
    if (init.keepAlive) this.#startKeeper();
  }

  attach(): void {
    this.#views++;
  }

  /** A view was released; `serverCount` is what the server has left (0: the lock is free). */
  detach(serverCount: number): void {
    this.#views--;
    if (this.#views <= 0 || serverCount === 0) {
      this.lease.finish();
      this.#close();
    }
  }

  serialize(): SerializedLease {
    return {
      v: 1,
      kind: opsOf(this.ref).kind,
      prefix: this.ref.ctx.prefix,
      name: this.ref.name,
      owner: this.ref.owner,
      fence: this.fence,
      leaseMs: this.leaseMs,
      expiresAt: Date.now() + Math.max(0, this.lease.deadline - now()),
    };
  }

  #close(): void {
    this.#stop.abort();
    this.#onEnd();
  }

  #startKeeper(): void {
    const ref = this.ref;
    ref.ctx.keeper.keep({
      name: ref.name,
      intervalMs: Math.max(1, Math.floor(this.leaseMs / 3)),
      signal: this.#stop.signal,
      lease: () => this.serialize(),
      renew: () => this.#renew(),
    });
  }

  async #renew(): Promise<"renewed" | "stop"> {
    if (!this.lease.active) return "stop";
    let leaseMs = this.leaseMs;
    if (this.#maxHoldMs !== undefined) {
      const left = this.#startedAt + this.#maxHoldMs - now();
      if (left <= 0) {
        this.lease.deadlineReason = "max-hold";
        return "stop";
      }
      leaseMs = Math.min(leaseMs, Math.ceil(left));
      if (leaseMs < this.leaseMs) this.lease.deadlineReason = "max-hold";
    }
    const result = await opsOf(this.ref).extend(this.ref, this.fence, leaseMs);
    if (!this.lease.active) return "stop";
    if (!result.renewed) {
      this.lease.lose("gone");
      return "stop";
    }
    this.lease.confirm(result.sentAt, leaseMs);
    this.ref.ctx.emit({ type: "renewed", name: this.ref.name, fence: this.fence, leaseMs });
    return leaseMs < this.leaseMs ? "stop" : "renewed";
  }

  toString(): string {
    return `Hold(${this.ref.name}, owner ${maskId(this.ref.owner)}, fence ${this.fence})`;
  }
}
