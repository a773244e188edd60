import { OutcomeUnknownError } from "@edgelock/core";
import { describe, expect, it } from "vitest";
import { checkHistory } from "../src/checker/check.ts";
import type { Rule } from "../src/checker/violation.ts";
import { Recorder } from "../src/history/recorder.ts";
import type { SectionRecord } from "../src/history/types.ts";

// Hand-made histories. Each one that breaks a guarantee must fail with the rule that names it.

const lock = (
  r: Recorder,
  worker: string,
  fence: number,
  extra: { frozen?: boolean; acquireSeq?: number } = {},
): SectionRecord =>
  r.enter({
    worker,
    primitive: "lock",
    mode: "exclusive",
    resources: ["lock:a"],
    capacity: 1,
    fences: { "lock:a": fence },
    ...extra,
  });

const permit = (r: Recorder, worker: string, capacity = 2): SectionRecord =>
  r.enter({
    worker,
    primitive: "semaphore",
    mode: "counted",
    resources: ["sem:s"],
    capacity,
    fences: {},
  });

let order = 0;
const write = (r: Recorder, s: SectionRecord, accepted = true) =>
  r.write(s, s.resources[0]!, s.fences[s.resources[0]!]!, { accepted, order: order++ });

const rules = (r: Recorder, options?: Parameters<typeof checkHistory>[1]): Rule[] =>
  checkHistory(r.history, options).violations.map((v) => v.rule);

describe("history checker: histories that hold", () => {
  it("sequential holds with increasing fences and accepted writes", () => {
    const r = new Recorder(1);
    for (const [worker, fence] of [
      ["w1", 10],
      ["w2", 11],
      ["w1", 12],
    ] as const) {
      const s = lock(r, worker, fence);
      write(r, s);
      r.end(s, "released");
    }
    const result = checkHistory(r.history);
    expect(result.violations).toEqual([]);
    expect(result.figures.sections).toBe(3);
  });

  it("an overlap across a data loss, the stale holder told and its write rejected by the fence", () => {
    const r = new Recorder(1);
    const stale = lock(r, "w1", 10);
    write(r, stale);
    const lossStart = r.next();
    r.dataLoss(lossStart, "restart without persistence");
    const fresh = lock(r, "w2", 20);
    write(r, fresh);
    write(r, stale, false); // the stale holder did not know yet: the fence stops it
    r.tell(stale, "release:NOT_HELD");
    r.end(stale, "lost");
    write(r, fresh);
    r.end(fresh, "released");
    const result = checkHistory(r.history);
    expect(result.violations).toEqual([]);
    expect(result.figures.excused["data-loss"]).toBeGreaterThan(0);
    // Once the quarantine lands, the same history must fail.
    expect(rules(r, { relaxAcrossDataLoss: false })).toContain("overlap");
  });

  it("a frozen holder told by its signal, whose stale write the fence rejected", () => {
    const r = new Recorder(1);
    const frozen = lock(r, "frozen", 10, { frozen: true });
    write(r, frozen);
    r.tell(frozen, "signal:deadline");
    const next = lock(r, "w2", 11);
    write(r, next);
    r.thaw(frozen);
    write(r, frozen, false);
    r.end(frozen, "lost");
    r.end(next, "released");
    expect(rules(r)).toEqual([]);
  });

  it("a fault that was retried, and one the caller cancelled", () => {
    const r = new Recorder(1);
    const retried = new Error("HTTP 502");
    r.hits.add("w1", "5xx-after", "acquire", retried);
    r.hits.add("w1", "cancelled", "acquire", new Error("aborted"));
    r.hits.surface(new Error("outcome unknown", { cause: retried }), "outcome-unknown");
    expect(rules(r)).toEqual([]);
  });
});

describe("history checker: histories that must fail", () => {
  it("an overlap of two holds that both released normally", () => {
    const r = new Recorder(1);
    const a = lock(r, "w1", 10);
    const b = lock(r, "w2", 11);
    r.end(a, "released");
    r.end(b, "released");
    expect(rules(r)).toContain("overlap");
  });

  it("an overlap where the first holder lost its lease without any data loss", () => {
    const r = new Recorder(1);
    const a = lock(r, "w1", 10);
    const b = lock(r, "w2", 11);
    write(r, b);
    r.tell(a, "signal:deadline");
    r.end(a, "lost");
    r.end(b, "released");
    expect(rules(r)).toContain("overlap");
    expect(rules(r, { excuseLateSignal: true })).toEqual([]);
  });

  it("an overlap across a data loss where the stale holder's release still succeeded", () => {
    const r = new Recorder(1);
    const stale = lock(r, "w1", 10);
    r.dataLoss(r.next(), "restart without persistence");
    const fresh = lock(r, "w2", 20);
    r.end(stale, "released");
    r.end(fresh, "released");
    expect(rules(r)).toEqual(expect.arrayContaining(["overlap", "data-loss-unsurfaced"]));
  });

  it("a countDown applied twice", () => {
    const r = new Recorder(1);
    const round = r.latchRound("latch:l", 3);
    // The first call's request was retried and counted twice: 3 → 2 (answer lost) → 1.
    round.calls.push({ startSeq: r.next(), endSeq: r.next(), outcome: "counted", remaining: 1 });
    round.calls.push({ startSeq: r.next(), endSeq: r.next(), outcome: "counted", remaining: 0 });
    round.finalCount = 0;
    round.endSeq = r.next();
    expect(rules(r)).toEqual(["latch-double-count"]);
  });

  it("a countDown answered with the same count twice", () => {
    const r = new Recorder(1);
    const round = r.latchRound("latch:l", 3);
    for (const remaining of [2, 2, 0])
      round.calls.push({ startSeq: r.next(), endSeq: r.next(), outcome: "counted", remaining });
    round.finalCount = 0;
    expect(rules(r)).toContain("latch-double-count");
  });

  it("a latch that opened before enough countDown calls were made", () => {
    const r = new Recorder(1);
    const round = r.latchRound("latch:l", 2);
    round.calls.push({ startSeq: r.next(), endSeq: r.next(), outcome: "counted", remaining: 1 });
    r.history.latchAwaits.push({
      round: round.id,
      startSeq: r.next(),
      endSeq: r.next(),
      opened: true,
    });
    expect(rules(r)).toEqual(["latch-early-open"]);
  });

  it("a permit over-grant: three holds of a two-permit semaphore at once", () => {
    const r = new Recorder(1);
    const held = [permit(r, "w1"), permit(r, "w2"), permit(r, "w3")];
    for (const s of held) r.end(s, "released");
    expect(rules(r)).toEqual(["over-capacity"]);
  });

  it("a release refused as an over-release with no data loss (a release applied twice)", () => {
    const r = new Recorder(1);
    const s = permit(r, "w1");
    r.refusal(s, "sem:s");
    r.end(s, "refused");
    expect(rules(r)).toEqual(["over-release"]);
    r.history.dataLosses.unshift({ startSeq: 0, endSeq: 0, detail: "earlier" });
    expect(rules(r)).toEqual([]);
  });

  it("a fault that was never surfaced (a silent success)", () => {
    const r = new Recorder(1);
    r.hits.add("w1", "dropped", "release", new Error("response lost"));
    expect(rules(r)).toEqual(["fault-unsurfaced"]);
  });

  it("a settle request that failed too is surfaced by the outcome-unknown error it left", () => {
    const r = new Recorder(1);
    const first = new Error("request timed out after 400 ms");
    const settle = new Error("request timed out after 400 ms");
    r.hits.add("w1", "timeout", "lock/extend", first);
    r.hits.add("w1", "timeout", "engine/settle", settle);
    expect(rules(r)).toEqual(["fault-unsurfaced", "fault-unsurfaced"]);
    r.hits.surface(new OutcomeUnknownError("extend", 1, first, settle), "outcome-unknown");
    expect(rules(r)).toEqual([]);
  });

  it("a fault the server injected that no client saw", () => {
    const r = new Recorder(1);
    r.fault("fail-after", "2× on any request").injected = 2;
    const seen = new Error("HTTP 522");
    r.hits.add("w1", "5xx-after", "release", seen);
    r.hits.surface(seen, "retried");
    expect(rules(r)).toEqual(["fault-unobserved"]);
  });

  it("an injected failure its client gave up on first was seen; the gave-ups a hang needs count once", () => {
    const r = new Recorder(1);
    r.fault("fail-before", "2× on any request").injected = 2;
    const failed = new Error("HTTP 521");
    r.hits.add("w1", "5xx-before", "acquire", failed);
    r.hits.surface(failed, "retried");
    // the other's answer came after the client's timeout on a loaded machine
    const timedOut = new Error("request timed out after 400 ms");
    r.hits.add("w2", "timeout", "acquire", timedOut);
    r.hits.surface(timedOut, "retried");
    expect(rules(r)).toEqual([]);
    // a hang takes that timeout for its own: nothing is left to cover the 5xx
    r.fault("hang", "1× on acquire").injected = 1;
    expect(rules(r)).toEqual(["fault-unobserved"]);
  });

  it("a hung request its caller cancelled was seen; one nobody saw fail was not", () => {
    const r = new Recorder(1);
    r.fault("hang", "2× on extend").injected = 2;
    const timedOut = new Error("request timed out after 400 ms");
    r.hits.add("w1", "timeout", "extend", timedOut);
    r.hits.surface(timedOut, "retried");
    r.hits.add("w1", "cancelled", "extend", new Error("hold ended"));
    expect(rules(r)).toEqual([]);
    r.fault("hang", "1× on acquire").injected = 1;
    expect(rules(r)).toEqual(["fault-unobserved"]);
  });

  it("an error that is not one of the typed errors", () => {
    const r = new Recorder(1);
    r.untyped("w1", "acquire", new TypeError("x is undefined"));
    expect(rules(r)).toEqual(["untyped-error"]);
  });

  it("a later hold with a smaller fence", () => {
    const r = new Recorder(1);
    r.end(lock(r, "w1", 20), "released");
    r.end(lock(r, "w2", 10), "released");
    expect(rules(r)).toEqual(["fence-order"]);
  });

  it("a write rejected from a holder that was never told (someone newer wrote during its hold)", () => {
    const r = new Recorder(1);
    const a = lock(r, "w1", 10);
    write(r, a, false);
    r.end(a, "released");
    expect(rules(r)).toContain("stale-write");
  });

  it("a frozen holder whose signal had not aborted when it wrote after its lease", () => {
    const r = new Recorder(1);
    const frozen = lock(r, "frozen", 10, { frozen: true });
    write(r, frozen);
    r.thaw(frozen);
    write(r, frozen); // after its lease, yet nothing had told it
    r.tell(frozen, "release:NOT_HELD");
    r.end(frozen, "lost");
    expect(rules(r)).toContain("frozen-not-told");
  });

  it("a resource that accepted a stale fence", () => {
    const r = new Recorder(1);
    const a = lock(r, "w1", 10);
    r.end(a, "released");
    const b = lock(r, "w2", 11);
    write(r, b);
    r.end(b, "released");
    r.history.writes.push({
      section: a.id,
      resource: "lock:a",
      fence: 10,
      seq: r.next(),
      accepted: true,
      order: order++,
      afterTold: true,
    });
    expect(rules(r)).toContain("resource");
  });

  it("a reentrant hold count that does not match the holds taken", () => {
    const r = new Recorder(1);
    const s = lock(r, "w1", 10);
    r.holdCount(s, 2, 3);
    r.end(s, "released");
    expect(rules(r)).toEqual(["hold-count"]);
  });

  it("a reader that saw a write while it held the read lock", () => {
    const r = new Recorder(1);
    const reader = r.enter({
      worker: "w1",
      primitive: "read-write-lock:read",
      mode: "shared",
      resources: ["rw:a"],
      capacity: 1,
      fences: {},
    });
    r.read(reader, "rw:a", 4);
    r.read(reader, "rw:a", 5);
    r.end(reader, "released");
    expect(rules(r)).toEqual(["read-changed"]);
  });

  it("state left over after the run", () => {
    const r = new Recorder(1);
    r.history.finals.push({ resource: "sem:s", what: "available", expected: 2, observed: 1 });
    expect(rules(r)).toEqual(["final-state"]);
  });
});

describe("history checker: holds granted already lost", () => {
  it("a hold whose signal had aborted when acquire returned never counts as an overlap", () => {
    const r = new Recorder(1);
    const a = lock(r, "w1", 10);
    write(r, a);
    const late = lock(r, "w2", 9); // granted before a, answered after its lease ran out
    r.tell(late, "signal:deadline");
    r.end(late, "lost");
    r.end(a, "released");
    const result = checkHistory(r.history);
    expect(result.violations).toEqual([]);
    expect(result.figures.excused["dead-on-arrival"]).toBe(1);
  });
});

describe("history checker: readers across a data loss", () => {
  const writer = (r: Recorder, worker: string) =>
    r.enter({
      worker,
      primitive: "read-write-lock:write",
      mode: "exclusive",
      resources: ["rw:a"],
      capacity: 1,
      fences: { "rw:a": 10 },
    });
  const reader = (r: Recorder, worker: string) =>
    r.enter({
      worker,
      primitive: "read-write-lock:read",
      mode: "shared",
      resources: ["rw:a"],
      capacity: 1,
      fences: {},
    });

  it("a write by a writer the loss cut off (told later), seen by a reader let in after it, is excused", () => {
    const r = new Recorder(1);
    const w = writer(r, "w1");
    r.write(w, "rw:a", 10, { accepted: true, order: 0 });
    r.dataLoss(r.next(), "restart without persistence");
    const rd = reader(r, "w2");
    r.read(rd, "rw:a", 1);
    r.write(w, "rw:a", 10, { accepted: true, order: 1 });
    r.read(rd, "rw:a", 2);
    r.tell(w, "signal:gone");
    r.end(w, "lost");
    r.end(rd, "released");
    expect(rules(r).filter((x) => x === "read-changed")).toEqual([]);
    // The restart quarantine admits no such overlap.
    expect(rules(r, { relaxAcrossDataLoss: false })).toContain("read-changed");
    // Nor does a writer never told of a loss.
    delete (w as { toldSeq?: number }).toldSeq;
    expect(rules(r)).toContain("read-changed");
  });

  it("a write by a writer granted after the reader entered is never excused, a data loss or not", () => {
    const r = new Recorder(1);
    r.dataLoss(r.next(), "restart without persistence");
    const rd = reader(r, "w2");
    r.read(rd, "rw:a", 0);
    const w = writer(r, "w1");
    r.write(w, "rw:a", 10, { accepted: true, order: 0 });
    r.read(rd, "rw:a", 1);
    r.end(w, "released");
    r.end(rd, "released");
    expect(rules(r)).toContain("read-changed");
  });
});

describe("history checker: semaphores across a data loss", () => {
  it("a permit from before the loss released into the new epoch lets one more holder in, until a release is refused for it", () => {
    const r = new Recorder(1);
    const old = permit(r, "w1");
    r.dataLoss(r.next(), "restart without persistence");
    const first = permit(r, "w2");
    r.exit(old);
    r.end(old, "released"); // applied in the new count: one permit more free than there are
    const both = [permit(r, "w3"), permit(r, "w4")]; // three open with `first`: excused
    const fourth = permit(r, "w5"); // four open: one more than the slack
    expect(rules(r)).toEqual(["over-capacity"]);
    for (const s of [first, ...both, fourth]) {
      r.exit(s);
      r.end(s, "released");
    }
    // Without the loss, the three are an over-grant too.
    const result = checkHistory(r.history);
    expect(result.figures.excused["data-loss"]).toBeGreaterThan(0);
    r.history.dataLosses.length = 0;
    expect(rules(r).filter((x) => x === "over-capacity").length).toBe(2);
  });

  it("an over-release refused for the stale permit ends the slack: three holds after it are an over-grant", () => {
    const r = new Recorder(1);
    const old = permit(r, "w1");
    r.dataLoss(r.next(), "restart without persistence");
    const first = permit(r, "w2");
    r.exit(old);
    r.end(old, "released");
    r.exit(first);
    r.refusal(first, "sem:s");
    r.end(first, "refused");
    const three = [permit(r, "w3"), permit(r, "w4"), permit(r, "w5")];
    for (const s of three) r.end(s, "released");
    expect(rules(r)).toEqual(["over-capacity"]);
  });

  it("a permit granted before the loss still open beside a full new epoch is excused, whatever the order", () => {
    const r = new Recorder(1);
    const old = permit(r, "w1");
    r.dataLoss(r.next(), "restart without persistence");
    const fresh = [permit(r, "w2"), permit(r, "w3")];
    r.refusal(old, "sem:s");
    r.end(old, "refused");
    for (const s of fresh) r.end(s, "released");
    const result = checkHistory(r.history);
    expect(result.violations).toEqual([]);
    expect(result.figures.excused["data-loss"]).toBeGreaterThan(0);
    // Nothing bounds an unleased permit from before the loss, not even the restart quarantine.
    expect(rules(r, { relaxAcrossDataLoss: false })).toEqual([]);
  });
});

describe("history checker: a holder's belief beside the server's lease", () => {
  type Probe = Parameters<Recorder["leaseProbe"]>[1];
  const probe = (r: Recorder, s: SectionRecord, p: Probe) => r.leaseProbe(s, p);
  /** One released Lock section with these probes, checked. */
  const judge = (...probes: Probe[]) => {
    const r = new Recorder(1);
    const s = lock(r, "w1", 10);
    for (const p of probes) probe(r, s, p);
    r.end(s, "released");
    return checkHistory(r.history);
  };

  const honest: [title: string, probes: Probe[], judged: number][] = [
    [
      "a belief within the server's lease holds; so does one a ms or two over (whole ms)",
      [
        { believedMs: 1_000, believedAfterMs: 990, serverMs: 1_200, elapsedMs: 10 },
        { believedMs: 1_212, believedAfterMs: 1_202, serverMs: 1_200, elapsedMs: 10 },
      ],
      2,
    ],
    [
      "a belief that moved while the server was asked (a renewal of its own sent or confirmed) is not judged",
      [
        // A claim sent during the probe lowered the belief (and shortened the server's lease).
        { believedMs: 1_900, believedAfterMs: 1_480, serverMs: 1_497, elapsedMs: 10 },
        // A renewal confirmed during the probe raised it past what the server said before it landed.
        { believedMs: 600, believedAfterMs: 1_490, serverMs: 595, elapsedMs: 10 },
      ],
      0,
    ],
  ];
  it.each(honest)("%s", (_, probes, judged) => {
    const result = judge(...probes);
    expect(result.violations).toEqual([]);
    expect(result.figures.leaseProbes).toEqual({ taken: probes.length, judged });
  });

  it("a belief past the server's lease, its deadline unmoved while the server was asked, is dishonest", () => {
    const { violations } = judge({
      believedMs: 1_600,
      believedAfterMs: 1_590,
      serverMs: 1_400,
      elapsedMs: 10,
    });
    expect(violations.map((v) => v.rule)).toEqual(["dishonest-lease"]);
    expect(violations[0]!.message).toMatch(
      /1590 ms left when the server said 1400 ms: 190 ms too long/,
    );
  });

  it("a lease wiped by a data loss between the acquire and the probe is excused; one lost before the acquire is not", () => {
    const r = new Recorder(1);
    const enter = (worker: string, fence: number) =>
      lock(r, worker, fence, { acquireSeq: r.next() });
    const wiped = enter("w1", 1);
    r.dataLoss(r.next(), "restart without persistence");
    probe(r, wiped, { believedMs: 1_000, believedAfterMs: 990, serverMs: 0, elapsedMs: 10 });
    r.tell(wiped, "signal:gone");
    r.end(wiped, "lost");
    expect(rules(r)).toEqual([]);
    const after = enter("w2", 2);
    probe(r, after, { believedMs: 1_000, believedAfterMs: 990, serverMs: 0, elapsedMs: 10 });
    r.end(after, "released");
    expect(rules(r)).toEqual(["dishonest-lease"]);
  });
});
