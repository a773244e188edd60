import { closeAll, harness, makeNodeRedis } from "@edgelock/testkit";
import { afterAll, describe, expect, it } from "vitest";
import { maskId, resolveBackend, type Backend, type LockEvent } from "../src/index.ts";
import { runSuites } from "./conformance/suites.ts";
import { eventTaps } from "./support.ts";

// Security review: owner, waiter, permit and operation ids are bearer secrets of a hold (whoever
// knows one can release or extend it). Every conformance suite runs here once more while this
// file records each random id sent to Redis and every event emitted; no event may show an id in
// full (events feed logs and dashboards), errors and their causes included.

const RANDOM_ID = /[A-Za-z0-9_-]{22}/g; // ids.ts randomId(): 128 bits, base64url
const ids = new Set<string>();
const events: LockEvent[] = [];
eventTaps.push((e) => events.push(e));

/** A backend that notes every id-shaped argument and key part of every command. */
async function spyingBackend(): Promise<Backend> {
  const inner = resolveBackend(await makeNodeRedis(harness().redisUrl));
  return {
    kind: inner.kind,
    command(args, signal) {
      for (const arg of args.slice(2))
        for (const id of String(arg).match(RANDOM_ID) ?? []) ids.add(id);
      return inner.command(args, signal);
    },
  };
}

/** Everything an event would show when logged: fields, error messages, causes, recursively. */
function rendered(value: unknown, seen = new Set<unknown>()): string {
  if (value === null || typeof value !== "object") return String(value);
  if (seen.has(value)) return "";
  seen.add(value);
  const own = Object.entries(value).map(([k, v]) => `${k}=${rendered(v, seen)}`);
  if (value instanceof Error)
    own.push(value.name, value.message, value.stack ?? "", rendered(value.cause, seen));
  return own.join(" ");
}

const target = { name: "TCP, events audited", makeRedis: spyingBackend };
await runSuites("tcp-audited", "conformance", target);

afterAll(closeAll);

describe("event masking audit", () => {
  it("no event of the conformance runs above shows an owner or operation id in full", () => {
    expect(ids.size).toBeGreaterThan(100);
    expect(events.length).toBeGreaterThan(100);
    const leaks = events.flatMap((e) => {
      const text = rendered(e);
      return [...(text.match(RANDOM_ID) ?? [])]
        .filter((s) => ids.has(s))
        .map((id) => `${e.type}: ${id}`);
    });
    expect(leaks).toEqual([]);
    // The check can see an id: acquisitions name their owner, masked.
    const acquired = events.filter(
      (e): e is Extract<LockEvent, { type: "acquired" }> => e.type === "acquired",
    );
    expect(acquired.length).toBeGreaterThan(10);
    expect(
      acquired.every(
        (e) => e.owner.endsWith("…") && e.owner.length <= maskId("x".repeat(22)).length,
      ),
    ).toBe(true);
  });
});
