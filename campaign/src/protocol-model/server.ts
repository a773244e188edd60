import { TIMING, type ProtocolRules } from "./rules.ts";

export type ClientId = "A" | "B";

/** One copy of a request on the wire. Copies of one operation share its id and deadline. */
export interface Copy {
  readonly op: string;
  readonly client: ClientId;
  readonly kind: "acquire" | "extend" | "release" | "settle" | "abandon";
  readonly fence: number;
  readonly version: number;
  readonly ms: number;
  /** Server tick after which no copy of this operation may apply (new protocol). */
  readonly deadline: number;
}

export type Answer =
  | { readonly s: "granted"; readonly fence: number; readonly v: number; readonly reentry: boolean }
  | { readonly s: "busy" }
  | { readonly s: "renewed"; readonly v: number }
  | { readonly s: "stale"; readonly v: number; readonly left: number }
  | { readonly s: "not-held" }
  | { readonly s: "released" }
  | { readonly s: "late" }
  | { readonly s: "tombstoned" };

export interface ServerState {
  readonly owner: ClientId | null;
  readonly fence: number;
  readonly count: number;
  readonly expiry: number;
  readonly v: number;
  readonly nextFence: number;
  /** Recorded answers (and tombstones, "x") by operation id. */
  readonly records: Readonly<Record<string, Answer | "x">>;
  /** Model bookkeeping: grants applied per operation id. */
  readonly grants: Readonly<Record<string, number>>;
}

export const EMPTY_SERVER: ServerState = {
  owner: null,
  fence: 0,
  count: 0,
  expiry: 0,
  v: 0,
  nextFence: 1,
  records: {},
  grants: {},
};

/** The server as of tick `now`: a lease that ran out is gone. */
export function expire(s: ServerState, now: number): ServerState {
  return s.owner !== null && now >= s.expiry ? { ...s, owner: null, count: 0 } : s;
}

/** Runs one copy atomically at tick `now`, as a script would. */
export function execute(
  rules: ProtocolRules,
  before: ServerState,
  c: Copy,
  now: number,
): { server: ServerState; answer: Answer } {
  const s = expire(before, now);
  const recorded = s.records[c.op];
  if (c.kind === "settle") {
    if (recorded === undefined) return record(s, c.op, "x", { s: "tombstoned" });
    return { server: s, answer: recorded === "x" ? { s: "tombstoned" } : recorded };
  }
  if (recorded !== undefined)
    return { server: s, answer: recorded === "x" ? { s: "tombstoned" } : recorded };
  if (rules.deadlines && now > c.deadline) return { server: s, answer: { s: "late" } };
  const keep = (server: ServerState, answer: Answer) =>
    rules.recordEveryAnswer || answer.s === "granted" || c.kind === "release"
      ? record(server, c.op, answer, answer)
      : { server, answer };
  switch (c.kind) {
    case "acquire":
      return keep(...acquire(s, c, now));
    case "extend":
      return keep(...extend(rules, s, c, now));
    case "release":
      return keep(...release(s, c));
    case "abandon":
      return abandon(s, c);
  }
}

function record(s: ServerState, op: string, value: Answer | "x", answer: Answer) {
  return { server: { ...s, records: { ...s.records, [op]: value } }, answer };
}

function acquire(s: ServerState, c: Copy, now: number): [ServerState, Answer] {
  const grants = { ...s.grants, [c.op]: (s.grants[c.op] ?? 0) + 1 };
  if (s.owner === null) {
    const fence = s.nextFence;
    const server = {
      ...s,
      owner: c.client,
      fence,
      count: 1,
      expiry: now + TIMING.leaseTicks,
      v: 1,
      nextFence: fence + 1,
      grants,
    };
    return [server, { s: "granted", fence, v: 1, reentry: false }];
  }
  if (s.owner === c.client) {
    // A nested acquire never shortens the lease, and lengthens it to a full one from now.
    const expiry = Math.max(s.expiry, now + TIMING.leaseTicks);
    return [
      { ...s, count: s.count + 1, expiry, grants },
      { s: "granted", fence: s.fence, v: s.v, reentry: true },
    ];
  }
  return [s, { s: "busy" }];
}

function extend(rules: ProtocolRules, s: ServerState, c: Copy, now: number): [ServerState, Answer] {
  if (s.owner !== c.client || s.fence !== c.fence) return [s, { s: "not-held" }];
  if (rules.leaseVersions && s.v !== c.version)
    return [s, { s: "stale", v: s.v, left: s.expiry - now }];
  return [
    { ...s, expiry: now + c.ms, v: s.v + 1 },
    { s: "renewed", v: s.v + 1 },
  ];
}

function release(s: ServerState, c: Copy): [ServerState, Answer] {
  if (s.owner !== c.client || s.fence !== c.fence) return [s, { s: "not-held" }];
  return s.count > 1
    ? [{ ...s, count: s.count - 1 }, { s: "released" }]
    : [{ ...s, owner: null, count: 0 }, { s: "released" }];
}

/** The old give-up of an acquire: mark the operation abandoned, undo a grant it recorded. */
function abandon(s: ServerState, c: Copy): { server: ServerState; answer: Answer } {
  const target = c.op.replace(/:abandon$/, "");
  const recorded = s.records[target];
  // Marked "x" either way, so that a repeat (or a late copy of the acquire) undoes nothing more.
  const marked = { ...s, records: { ...s.records, [target]: "x" as const } };
  if (
    recorded &&
    recorded !== "x" &&
    recorded.s === "granted" &&
    s.owner === c.client &&
    s.fence === recorded.fence
  )
    return {
      server: { ...marked, ...release(marked, { ...c, fence: recorded.fence })[0] },
      answer: { s: "released" },
    };
  return { server: marked, answer: { s: "tombstoned" } };
}
