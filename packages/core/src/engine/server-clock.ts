import { now } from "./clock.ts";

/**
 * Bound on the rate error of the local monotonic clock against the server's (1000 ppm: far
 * beyond a quartz oscillator's error, and what NTP slews at most).
 */
export const CLOCK_DRIFT = 1e-3;

/** One reading of the server clock: read by the server between `sentAt` and `recvAt` (local). */
interface Sample {
  readonly serverMs: number;
  readonly sentAt: number;
  readonly recvAt: number;
}

/**
 * What one client knows of one server clock (per backend: one per database of a quorum). Every
 * reply of a manifest script carries the server time, so after its first request a client
 * bounds the server clock within a round trip; before it (a Worker's client made per request)
 * it has only its wall clock, trusted to within `errorMs` (the `clockErrorMs` option).
 */
export class ServerClock {
  #sample: Sample | undefined;
  readonly #wall: () => number;
  readonly #errorMs: number;

  constructor(wall: () => number, errorMs: number) {
    this.#wall = wall;
    this.#errorMs = errorMs;
  }

  get known(): boolean {
    return this.#sample !== undefined;
  }

  observe(serverMs: number, sentAt: number, recvAt: number): void {
    if (Number.isFinite(serverMs)) this.#sample = { serverMs, sentAt, recvAt };
  }

  /** Server ms the server clock has surely reached at local monotonic time `t`. */
  lower(t = now()): number {
    const s = this.#sample;
    if (s === undefined) return this.#wall() + (t - now()) - this.#errorMs;
    return s.serverMs + Math.max(0, t - s.recvAt) * (1 - CLOCK_DRIFT);
  }

  /** Server ms the server clock has surely not passed at local monotonic time `t`. */
  upper(t = now()): number {
    const s = this.#sample;
    if (s === undefined) return this.#wall() + (t - now()) + this.#errorMs;
    return s.serverMs + 1 + Math.max(0, t - s.sentAt) * (1 + CLOCK_DRIFT);
  }

  /** Local ms to wait until `lower()` reaches `serverMs` (0 when it has). */
  msUntilPassed(serverMs: number): number {
    const gap = serverMs - this.lower();
    return gap <= 0 ? 0 : Math.ceil(gap / (1 - CLOCK_DRIFT)) + 1;
  }
}
