import { createHash } from "node:crypto";
import { advance, receive, timeout, type ClientState, type Step } from "./client.ts";
import { TIMING, type ProtocolRules } from "./rules.ts";
import {
  EMPTY_SERVER,
  execute,
  expire,
  type ClientId,
  type Copy,
  type ServerState,
} from "./server.ts";

/** Everything at one point of a run: the server, both clients, copies on the wire, the tick. */
interface World {
  readonly now: number;
  /** Duplicates the adversary may still make (late copies are unbounded: any order is allowed). */
  readonly duplicates: number;
  readonly server: ServerState;
  readonly clients: readonly [ClientState, ClientState];
  readonly wire: readonly Copy[];
}

const MAX_STATES = 3_000_000;

export interface Counterexample {
  readonly violation: string;
  readonly trace: readonly string[];
}

export interface ExploreResult {
  readonly states: number;
  readonly counterexample: Counterexample | null;
}

/**
 * Depth-first over every interleaving the adversary can choose: deliver any copy on the wire
 * (its reply seen, lost, or the copy duplicated to run again later), time out a waiting client
 * (it resends, then gives up), or advance server time. Stops at the first broken invariant.
 */
export function explore(
  rules: ProtocolRules,
  programs: Readonly<Record<ClientId, readonly Step[]>>,
): ExploreResult {
  const seen = new Set<string>();
  const start = begin(rules, programs);
  // Traces as linked lists: a step shares its whole past with its siblings.
  const stack: { world: World; trace: Trace | null }[] = [{ world: start, trace: null }];
  while (stack.length > 0) {
    const { world, trace } = stack.pop()!;
    const key = keyOf(world);
    if (seen.has(key)) continue;
    seen.add(key);
    if (seen.size > MAX_STATES)
      throw new Error(`more than ${MAX_STATES} states: shrink the scenario`);
    for (const [label, next] of moves(rules, programs, world)) {
      const step = { label, prev: trace };
      const violation = broken(next);
      if (violation)
        return { states: seen.size, counterexample: { violation, trace: unwind(step) } };
      stack.push({ world: forget(rules, next), trace: step });
    }
  }
  return { states: seen.size, counterexample: null };
}

interface Trace {
  readonly label: string;
  readonly prev: Trace | null;
}

function unwind(trace: Trace | null): string[] {
  const out: string[] = [];
  for (let t = trace; t; t = t.prev) out.unshift(t.label);
  return out;
}

/**
 * Drops what no later step can read: the records, grants and answers of operations with no copy
 * left on the wire and no caller waiting on them. The invariants were checked before, so this
 * only merges states that differ in dead history.
 */
function forget(rules: ProtocolRules, before: World): World {
  const w = { ...before, wire: before.wire.filter((c) => !inert(rules, before, c)) };
  const live = new Set<string>();
  for (const c of w.wire) live.add(c.op.replace(/:abandon$/, ""));
  for (const c of w.clients) if (c.waiting) live.add(c.waiting.op);
  const keep = <T>(r: Readonly<Record<string, T>>) =>
    Object.fromEntries(Object.entries(r).filter(([op]) => live.has(op)));
  return {
    ...w,
    server: { ...w.server, records: keep(w.server.records), grants: keep(w.server.grants) },
    clients: w.clients.map((c) => ({ ...c, told: keep(c.told) })) as unknown as [
      ClientState,
      ClientState,
    ],
  };
}

/**
 * A copy nobody waits for whose every future run changes nothing: its operation has a recorded
 * answer or tombstone (records outlive every copy in the model), or it is past its deadline.
 * Never delivering it is the same as delivering it: drop it.
 */
function inert(rules: ProtocolRules, w: World, c: Copy): boolean {
  const target = c.op.replace(/:abandon$/, "");
  if (w.clients.some((x) => x.waiting?.op === target)) return false;
  if (c.kind === "abandon") return w.server.records[target] === "x";
  if (w.server.records[c.op] !== undefined) return true;
  return rules.deadlines && c.kind !== "settle" && w.now > c.deadline;
}

/** Copies on the wire are a multiset: their order is not part of the state. */
function keyOf(w: World): string {
  const wire = w.wire.map((c) => JSON.stringify(c)).sort();
  // A digest, not the text: millions of states must fit in memory.
  return createHash("sha1")
    .update(JSON.stringify([w.now, w.duplicates, w.server, w.clients, wire]))
    .digest("base64");
}

function begin(rules: ProtocolRules, programs: Readonly<Record<ClientId, readonly Step[]>>): World {
  const wire: Copy[] = [];
  const send = (c: Copy) => wire.push(c);
  const blank = (id: ClientId): ClientState => ({ id, pc: 0, waiting: null, hold: null, told: {} });
  const a = advance(rules, programs.A, blank("A"), 0, send);
  const b = advance(rules, programs.B, blank("B"), 0, send);
  return { now: 0, duplicates: TIMING.duplicates, server: EMPTY_SERVER, clients: [a, b], wire };
}

function* moves(
  rules: ProtocolRules,
  programs: Readonly<Record<ClientId, readonly Step[]>>,
  w: World,
): Generator<[string, World]> {
  // Yielded in reverse preference: the depth-first stack pops the last one first.
  if (w.now < TIMING.maxTicks) yield [`tick → t${w.now + 1}`, { ...w, now: w.now + 1 }];
  for (const [k, c] of w.clients.entries()) {
    if (!c.waiting) continue;
    const wire = [...w.wire];
    const next = timeout(rules, programs[c.id], c, w.now, (x) => wire.push(x));
    const clients = [...w.clients] as [ClientState, ClientState];
    clients[k] = next;
    yield [`t${w.now} ${c.id} times out on ${c.waiting.op}`, { ...w, clients, wire }];
  }
  for (let i = 0; i < w.wire.length; i++) {
    const copy = w.wire[i]!;
    const awaited = w.clients.some((c) => c.id === copy.client && c.waiting?.op === copy.op);
    for (const mode of ["reply", "lost", "duplicate"] as const) {
      if (mode === "duplicate" && (w.duplicates === 0 || copy.kind === "settle")) continue;
      if (mode === "lost" && !awaited) continue; // nobody is listening: the same as a reply
      const { server, answer } = execute(rules, w.server, copy, w.now);
      const wire: Copy[] = w.wire.filter((_, j) => j !== i);
      if (mode === "duplicate") wire.push(copy);
      const send = (c: Copy) => wire.push(c);
      const clients = w.clients.map((c) => {
        if (mode === "lost" || c.id !== copy.client || c.waiting?.op !== copy.op) return c;
        return receive(rules, programs[c.id], c, answer, w.now, send);
      }) as [ClientState, ClientState];
      yield [
        `t${w.now} ${copy.kind} ${copy.op} → ${answer.s}${mode === "reply" ? "" : ` (${mode})`}`,
        { ...w, duplicates: w.duplicates - (mode === "duplicate" ? 1 : 0), server, clients, wire },
      ];
    }
  }
}

/** The invariants: no grant for a caller told "not acquired", none applied twice, honest leases. */
function broken(w: World): string | null {
  const server = expire(w.server, w.now);
  for (const [op, n] of Object.entries(w.server.grants))
    if (n > 1) return `double-grant: ${op} applied ${n}×`;
  for (const c of w.clients) {
    for (const [op, told] of Object.entries(c.told))
      if (told === "none" && (w.server.grants[op] ?? 0) > 0)
        return `phantom-grant: ${op} told "not acquired" but applied`;
    const h = c.hold;
    if (!h || h.deadline <= w.now) continue;
    if (server.owner !== c.id || server.fence !== h.fence)
      return `dishonest-lease: ${c.id} believes fence ${h.fence} until t${h.deadline}; the server has ${server.owner ?? "nobody"}`;
    if (server.expiry < h.deadline)
      return `dishonest-lease: ${c.id} believes until t${h.deadline}; the server's lease ends t${server.expiry}`;
  }
  return null;
}
