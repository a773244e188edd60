import type { WaitStrategy } from "@edgelock/core";
import type { Section } from "../run/history.ts";
import type { EventClock } from "./clock.ts";
import type { Busy, ModelServer } from "./server.ts";

export interface ModelParams {
  readonly rttMs: number;
  readonly jitterMs: number;
  /** Extra delay per hop from processing, uniform in [0, noiseMs]. */
  readonly noiseMs: number;
  readonly csMs: () => number;
  readonly sections: number;
  readonly push: boolean;
  readonly claimMs: number;
  readonly strategy: WaitStrategy;
  /**
   * A design not in the library, to see how far more polls per section go: the head sends
   * read-only polls (`ModelServer.peek`) every `periodMs` without waiting for their answers, at
   * most `max` of them, and enters on the first that finds its grant (claiming later, as on a
   * pushed grant); then attempts again.
   */
  readonly peek?: { readonly periodMs: number; readonly max: number };
}

export interface ModelWorld {
  readonly clock: EventClock;
  readonly server: ModelServer;
  readonly params: ModelParams;
  readonly sections: Section[];
  requests: number;
  oneWay(): number;
}

/**
 * One worker as the Lock and `waitLoop` behave: attempt, sleep as the strategy says (capped by
 * the holder's lease), listen on its grant channel when queued behind others, enter on a grant
 * message when the claim window leaves room, claim in the background, release, repeat.
 */
export class ModelWorker {
  #k = 0;
  #requestedAt = 0;
  #rtt: number | undefined;
  #rttDev = 0;
  #busy: { hint: Busy; sentAt: number; replyAt: number; attempt: number } | undefined;
  #timer = 0;
  #inFlight = false;
  #stream: { state: "connecting" | "live" | "closed"; activeAt: number } | undefined;
  #streams = 0;
  #pending: { fence: number; at: number; claimMs: number }[] = [];

  constructor(
    readonly id: number,
    private readonly w: ModelWorld,
  ) {}

  start(): void {
    if (this.#k++ >= this.w.params.sections) return;
    this.#requestedAt = this.w.clock.now;
    this.#rtt = undefined;
    this.#streams = 0;
    this.#attempt(1);
  }

  /** The server published a grant to us; true when our stream is there to hear it. */
  deliver(fence: number, claimMs: number): void {
    const s = this.#stream;
    if (!s || s.state === "closed" || s.activeAt > this.w.clock.now) return;
    const grant = { fence, at: this.w.clock.now, claimMs };
    this.w.clock.after(this.w.oneWay(), () => this.#onMessage(grant));
  }

  #send<T>(run: () => T, then: (answer: T) => void): void {
    const { clock } = this.w;
    this.w.requests++;
    clock.after(this.w.oneWay(), () => {
      const answer = run();
      clock.after(this.w.oneWay(), () => then(answer));
    });
  }

  #attempt(n: number): void {
    const { clock, server, params } = this.w;
    const sentAt = clock.now;
    const returnWithin = params.strategy.maxDelayMs + 5_000;
    this.#inFlight = true;
    this.#send(
      () => server.acquire(this.id, 30_000, true, returnWithin),
      (answer) => {
        this.#inFlight = false;
        const rtt = clock.now - sentAt;
        this.#rttDev =
          this.#rtt === undefined
            ? 0
            : this.#rttDev + (Math.abs(rtt - this.#rtt) - this.#rttDev) / 4;
        this.#rtt = this.#rtt === undefined ? rtt : this.#rtt + (rtt - this.#rtt) / 4;
        if ("granted" in answer) return this.#enter(answer.granted, false);
        this.#busy = { hint: answer.busy, sentAt, replyAt: clock.now, attempt: n };
        if (
          params.push &&
          answer.busy.position >= 2 &&
          (!this.#stream || this.#stream.state === "closed") &&
          this.#streams < 2
        )
          this.#open();
        const queued = this.#pending.shift();
        if (queued) this.#onMessage(queued);
        else this.#plan();
      },
    );
  }

  #open(): void {
    const { clock } = this.w;
    this.w.requests++;
    this.#streams++;
    const stream = {
      state: "connecting" as "connecting" | "live" | "closed",
      activeAt: clock.now + this.w.oneWay(),
    };
    this.#stream = stream;
    clock.at(stream.activeAt + this.w.oneWay(), () => {
      if (stream.state !== "connecting") return;
      stream.state = "live";
      if (!this.#inFlight && this.#busy) this.#plan();
    });
  }

  #plan(): void {
    const b = this.#busy!;
    const { strategy } = this.w.params;
    const wanted = strategy.nextDelay({
      ...b.hint,
      remainingLeaseMs: b.hint.pttl,
      attempt: b.attempt,
      budgetMs: 60_000,
      rttMs: this.#rtt ?? 0,
      rttDevMs: this.#rttDev,
      pushed: this.#stream !== undefined && this.#stream.state !== "closed",
      claimWindowMs: this.w.params.claimMs,
    });
    if (process.env["MODEL_TRACE"] === String(this.id)) {
      const h = b.hint;
      console.log(
        `t ${this.w.clock.now.toFixed(1)} att ${b.attempt} pos ${h.position} mean ${h.meanHoldMs} cyc ${h.meanCycleMs} dev ${h.holdDevMs} age ${h.holdAgeMs.toFixed(1)} rtt ${(this.#rtt ?? 0).toFixed(1)} -> ${wanted.toFixed(1)}`,
      );
    }
    const cap = b.hint.pttl > 0 ? b.hint.pttl : Infinity;
    const delay = Math.max(0, Math.min(wanted, cap) - (this.w.clock.now - b.replyAt));
    const token = ++this.#timer;
    const peek = this.w.params.peek;
    if (peek && b.hint.position === 1) {
      // Seen: any poll sent now lands after the earliest release (the holder learned of its
      // grant over half a round trip before our answer left): peek from now. Unseen: as aimed.
      const seen = (b.hint.seenAgoMs ?? -1) >= 0;
      const first = seen ? 0 : delay;
      for (let k = 0; k < peek.max; k++)
        this.w.clock.after(first + k * peek.periodMs, () => {
          if (token !== this.#timer) return;
          this.#send(
            () => this.w.server.peek(this.id),
            (fence) => {
              if (token !== this.#timer) return;
              if (fence !== undefined) return this.#enter(fence, true);
              if (k === peek.max - 1 && !this.#inFlight) this.#attempt(b.attempt + 1);
            },
          );
        });
      return;
    }
    this.w.clock.after(delay, () => {
      if (token === this.#timer && !this.#inFlight) this.#attempt(b.attempt + 1);
    });
  }

  #onMessage(grant: { fence: number; at: number; claimMs: number }): void {
    const b = this.#busy;
    if (this.#inFlight) return void this.#pending.push(grant);
    if (!b || this.#stream?.state === "closed") return;
    if (grant.at < b.hint.serverMs) return; // stale
    this.#timer++;
    const elapsed = this.w.clock.now - b.sentAt;
    const drift = 2 + Math.ceil((elapsed + grant.claimMs) / 100);
    if (grant.claimMs - drift - elapsed < 3 * (this.#rtt ?? 0) + 20)
      return this.#attempt(b.attempt + 1);
    this.#send(
      () => this.w.server.extend(this.id, grant.fence, 30_000),
      () => undefined,
    );
    this.#enter(grant.fence, true);
  }

  #enter(fence: number, _pushed: boolean): void {
    const { clock, params, server } = this.w;
    this.#timer++;
    this.#busy = undefined;
    this.#pending = [];
    if (this.#stream) this.#stream.state = "closed";
    const enter = clock.now;
    if (process.env["MODEL_TRACE"] === String(this.id))
      console.log(`t ${enter.toFixed(1)} ENTER fence ${fence}`);
    clock.after(params.csMs() + Math.random() * params.noiseMs, () => {
      this.w.sections.push({
        worker: this.id,
        requestedAt: this.#requestedAt,
        enter,
        exit: clock.now,
      });
      this.#send(
        () => server.release(this.id, fence),
        () => this.start(),
      );
    });
  }
}
