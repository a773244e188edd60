import type { Answer, ClientId, Copy } from "./server.ts";
import { TIMING, type ProtocolRules } from "./rules.ts";

/** One logical call of a client's program. */
export type Step =
  | { readonly kind: "acquire"; readonly unlessHeld?: boolean }
  | { readonly kind: "extend"; readonly ms: number }
  | { readonly kind: "release" };

export interface Hold {
  readonly fence: number;
  readonly v: number;
  /** The local deadline: the client believes it holds until this tick. */
  readonly deadline: number;
}

export interface Waiting {
  readonly op: string;
  readonly step: Step;
  readonly firstSent: number;
  readonly attempts: number;
  readonly settling: boolean;
  readonly retriedStale: boolean;
  readonly fence: number;
  readonly version: number;
}

export interface ClientState {
  readonly id: ClientId;
  readonly pc: number;
  readonly waiting: Waiting | null;
  readonly hold: Hold | null;
  /** What the caller was told, per acquire operation id. */
  readonly told: Readonly<Record<string, "held" | "none" | "unknown">>;
}

export type Send = (copy: Copy) => void;

/** Starts the next step of the program (skipping steps that need a hold it lacks). */
export function advance(
  rules: ProtocolRules,
  program: readonly Step[],
  c: ClientState,
  now: number,
  send: Send,
): ClientState {
  let state = c;
  for (;;) {
    const step = program[state.pc];
    if (step === undefined) return { ...state, waiting: null };
    const needsHold = step.kind !== "acquire" || step.unlessHeld === true;
    const skip =
      step.kind === "acquire"
        ? step.unlessHeld === true && state.hold !== null
        : state.hold === null;
    if (needsHold && skip) {
      state = { ...state, pc: state.pc + 1 };
      continue;
    }
    const op = `${state.id}${state.pc}`;
    const waiting: Waiting = {
      op,
      step,
      firstSent: now,
      attempts: 1,
      settling: false,
      retriedStale: false,
      fence: state.hold?.fence ?? 0,
      version: state.hold?.v ?? 0,
    };
    send(copyOf(state.id, waiting, now));
    let hold = state.hold;
    if (step.kind === "release") hold = null; // the caller stops acting on it as it releases
    if (step.kind === "extend" && hold && rules.unresolvedDeadline)
      hold = { ...hold, deadline: Math.min(hold.deadline, now + step.ms) };
    return { ...state, waiting, hold };
  }
}

export function copyOf(client: ClientId, w: Waiting, now: number, kind?: Copy["kind"]): Copy {
  return {
    op: w.op,
    client,
    kind: kind ?? w.step.kind,
    fence: w.fence,
    version: w.version,
    ms: w.step.kind === "extend" ? w.step.ms : 0,
    deadline: w.firstSent + TIMING.budgetTicks,
  };
}

/** The caller's reply to its current operation (or to its settle). */
export function receive(
  rules: ProtocolRules,
  program: readonly Step[],
  c: ClientState,
  answer: Answer,
  now: number,
  send: Send,
): ClientState {
  const w = c.waiting!;
  const done = (state: ClientState) =>
    advance(rules, program, { ...state, pc: state.pc + 1, waiting: null }, now, send);
  switch (w.step.kind) {
    case "acquire":
      if (answer.s === "granted") {
        const hold = c.hold ?? {
          fence: answer.fence,
          v: answer.v,
          deadline: w.firstSent + TIMING.leaseTicks,
        };
        return done({ ...c, hold, told: { ...c.told, [w.op]: "held" } });
      }
      return done({ ...c, told: { ...c.told, [w.op]: "none" } });
    case "extend": {
      if (!c.hold) return done(c);
      if (answer.s === "renewed")
        return done({ ...c, hold: { ...c.hold, v: answer.v, deadline: w.firstSent + w.step.ms } });
      if (answer.s === "stale") {
        const hold = {
          ...c.hold,
          v: answer.v,
          deadline: Math.min(c.hold.deadline, now + answer.left),
        };
        if (w.retriedStale) return done({ ...c, hold });
        // Retry once with the version the server has, under a new operation id.
        const retry: Waiting = {
          ...w,
          op: `${w.op}r`,
          firstSent: now,
          attempts: 1,
          settling: false,
          retriedStale: true,
          version: answer.v,
        };
        send(copyOf(c.id, retry, now));
        const pending = rules.unresolvedDeadline
          ? { ...hold, deadline: Math.min(hold.deadline, now + w.step.ms) }
          : hold;
        return { ...c, hold: pending, waiting: retry };
      }
      if (answer.s === "not-held") return done({ ...c, hold: null });
      return done(c); // late or tombstoned: it never applied and never will
    }
    case "release":
      return done(c);
  }
}

/** The caller's request timed out: resend, or give up (settle in the new protocol). */
export function timeout(
  rules: ProtocolRules,
  program: readonly Step[],
  c: ClientState,
  now: number,
  send: Send,
): ClientState {
  const w = c.waiting!;
  if (!w.settling && w.attempts <= TIMING.retries) {
    send(copyOf(c.id, w, now));
    return { ...c, waiting: { ...w, attempts: w.attempts + 1 } };
  }
  if (rules.settle && !w.settling) {
    send(copyOf(c.id, w, now, "settle"));
    return { ...c, waiting: { ...w, settling: true } };
  }
  // Outcome unknown. Both clients abandon an acquire in the background (undo a grant, mark the
  // operation); a renewal's lease stays as the client last knew it.
  if (w.step.kind === "acquire")
    send({ ...copyOf(c.id, w, now, "abandon"), op: `${w.op}:abandon` });
  const told = w.step.kind === "acquire" ? { ...c.told, [w.op]: "unknown" as const } : c.told;
  return advance(rules, program, { ...c, told, pc: c.pc + 1, waiting: null }, now, send);
}
