import { now } from "../engine/clock.ts";
import { LeaseLostError, type LeaseLossReason } from "../errors.ts";

/**
 * The holder's view of one lease, so that it never lies: `signal` aborts when a renewal finds the
 * hold gone, and at the local deadline — the send time of the request that granted or last
 * renewed it, plus the lease it confirmed — if nothing confirmed it in time. A hung request or
 * a retry backoff therefore cannot leave a holder believing it holds.
 */
export class LeaseState {
  readonly #controller = new AbortController();
  readonly #name: string;
  readonly #onLost: (error: LeaseLostError) => void;
  /** From the last confirmation. */
  #confirmed: number;
  /** What each renewal whose outcome is not known yet may have set: the earliest counts. */
  /** When the lease was lost (monotonic ms); a lost lease's deadline is never later. */
  #lostAt = Infinity;
  readonly #unresolved = new Set<{ readonly bound: number }>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #ended = false;
  readonly #onEnd: (() => void)[] = [];
  /** The reason to give if the deadline passes (e.g. "max-hold" once the keeper stopped on purpose). */
  deadlineReason: LeaseLossReason = "deadline";

  constructor(
    name: string,
    sentAt: number,
    leaseMs: number,
    onLost: (error: LeaseLostError) => void,
  ) {
    this.#name = name;
    this.#onLost = onLost;
    this.#confirmed = sentAt + leaseMs;
    this.#arm();
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /**
   * Monotonic ms after which the lease may have expired on the server: the last confirmation's,
   * or earlier, what a renewal still in doubt may have set (it may shorten the lease).
   */
  get deadline(): number {
    let deadline = Math.min(this.#confirmed, this.#lostAt);
    for (const { bound } of this.#unresolved) deadline = Math.min(deadline, bound);
    return deadline;
  }

  get active(): boolean {
    return !this.#ended;
  }

  /** A request sent at `sentAt` confirmed `leaseMs` more: the deadline moves to match. */
  confirm(sentAt: number, leaseMs: number): void {
    if (this.#ended) return;
    this.#confirmed = sentAt + leaseMs;
    this.#arm();
  }

  /**
   * The deadline was derived elsewhere (the quorum lock's: from its databases' leases, see
   * quorum/quorum-validity.ts): it moves there, earlier or later.
   */
  confirmUntil(deadline: number): void {
    this.confirm(deadline, 0);
  }

  /**
   * A renewal ordered by the lease version confirmed `leaseMs` from `sentAt`: every renewal this
   * holder sent before it carried an older version, so none of them can apply any more.
   */
  renewed(sentAt: number, leaseMs: number): void {
    // A lost lease stays lost: a renewal answered after the loss (its bound had passed) must not
    // put back the longer lease an earlier confirmation set, which `toJSON()` would then carry.
    if (this.#ended) return;
    this.#unresolved.clear();
    this.confirm(sentAt, leaseMs);
  }

  /**
   * A renewal sent at `sentAt` for `leaseMs` is in flight: until `resolve()` (its outcome known,
   * and it did not apply), the deadline is no later than what it would set.
   */
  inDoubt(sentAt: number, leaseMs: number): { resolve(): void } {
    const entry = { bound: sentAt + leaseMs };
    if (!this.#ended) {
      this.#unresolved.add(entry);
      this.#arm();
    }
    return {
      resolve: () => {
        if (this.#unresolved.delete(entry) && !this.#ended) this.#arm();
      },
    };
  }

  lose(reason: LeaseLossReason, cause?: unknown): void {
    if (this.#ended) return;
    this.#lostAt = now();
    this.#end();
    const error = new LeaseLostError(
      this.#name,
      reason,
      cause === undefined ? undefined : { cause },
    );
    this.#controller.abort(error);
    this.#onLost(error);
  }

  /** The hold ended normally (released): stop the deadline, leave the signal un-aborted. */
  finish(): void {
    this.#end();
  }

  /** Runs `fn` once when the lease ends, lost or finished (e.g. to stop tracking it). */
  onEnd(fn: () => void): void {
    if (this.#ended) fn();
    else this.#onEnd.push(fn);
  }

  #end(): void {
    this.#ended = true;
    clearTimeout(this.#timer);
    for (const fn of this.#onEnd.splice(0)) fn();
  }

  #arm(): void {
    clearTimeout(this.#timer);
    const remaining = this.deadline - now();
    if (remaining <= 0) {
      this.lose(this.deadlineReason);
      return;
    }
    this.#timer = setTimeout(() => this.lose(this.deadlineReason), remaining);
  }
}
