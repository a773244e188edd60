import { keyPrefix } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import { ReplyError, resolveBackend, TransportError } from "../../src/index.ts";
import { eventsOf, makeTestClient } from "../support.ts";
import type { SuiteTarget } from "./suites.ts";

/**
 * The replication assumptions of docs/guarantees.md ("Replication and failover") that a client
 * can check on its own database (the HTTP-level checks are the rest-server's
 * upstash-behaviours.ts): every script goes by EVALSHA, which a replica refuses for a writing
 * script and Upstash runs where writes run, so the next script of any client sees its write;
 * none goes by a read-only form; and `client.initialize()` maps the server's own answer to
 * `CONFIG GET` (a policy, or "unknown" where it is refused). Run live, this records what a real
 * Upstash database answers.
 */
export function runReplicationAssumptions(target: SuiteTarget): void {
  describe(`replication assumptions: ${target.name}`, () => {
    it("every script goes by EVALSHA, never a read-only form, and the next client's script sees its write at once", async () => {
      const prefix = keyPrefix();
      const { client, requests } = makeTestClient(await target.makeRedis(), { prefix });
      await client
        .lock("warm")
        .tryAcquire({ leaseMs: 5_000 })
        .then((h) => h?.release());
      const held = await client.lock("l").tryAcquire({ leaseMs: 5_000 });
      expect(held).not.toBeNull();
      await held!.extend(6_000);
      const semaphore = client.semaphore("s");
      expect(await semaphore.trySetPermits(1)).toBe(true);
      const permit = await semaphore.tryAcquire();
      expect(permit).not.toBeNull();
      await permit!.release();
      // A fresh client: no sync token and no server time, so nothing but the script's own read
      // of the database can tell it the lock is held.
      const other = makeTestClient(await target.makeRedis(), { prefix });
      expect(await other.client.lock("l").tryAcquire({ leaseMs: 5_000 })).toBeNull();
      await held!.release();
      expect(await other.client.lock("l").tryAcquire({ leaseMs: 5_000 })).not.toBeNull();

      const commands = [...requests.byCommand.keys(), ...other.requests.byCommand.keys()];
      expect(commands.filter((name) => name.endsWith("_RO"))).toEqual([]);
      expect(requests.byCommand.get("EVALSHA") ?? 0).toBeGreaterThanOrEqual(5);
      expect(other.requests.byCommand.get("EVALSHA") ?? 0).toBeGreaterThanOrEqual(1);
    });

    it('client.initialize() maps the server\'s CONFIG GET answer: its policy, or "unknown" where refused', async () => {
      const backend = resolveBackend(await target.makeRedis());
      const raw = await backend
        .command(["CONFIG", "GET", "maxmemory-policy"], AbortSignal.timeout(10_000))
        .then(
          (reply) => ({ reply }),
          (error: unknown) => ({ error }),
        );
      let want: string;
      if ("error" in raw) {
        const refused =
          raw.error instanceof ReplyError ||
          (raw.error instanceof TransportError &&
            raw.error.status !== undefined &&
            raw.error.status >= 400 &&
            raw.error.status < 500);
        expect(refused, String(raw.error)).toBe(true);
        want = "unknown";
        console.info(`${target.name}: CONFIG GET maxmemory-policy refused: ${String(raw.error)}`);
      } else {
        want = policyOf(raw.reply);
        console.info(`${target.name}: CONFIG GET maxmemory-policy → ${JSON.stringify(raw.reply)}`);
      }
      const { client, events } = makeTestClient(await target.makeRedis(), { prefix: keyPrefix() });
      const result = await client.initialize();
      expect(result.eviction.policy).toBe(want);
      // Any policy but noeviction is reported once through an event too.
      const reported = eventsOf(events, "eviction-policy").map((e) => e.policy);
      expect(reported).toEqual(want === "noeviction" || want === "unknown" ? [] : [want]);
    });
  });
}

/** `CONFIG GET` answers `[name, value]` (RESP2, REST) or `{ name: value }` (RESP3). */
function policyOf(reply: unknown): string {
  if (Array.isArray(reply) && reply[0] === "maxmemory-policy") return String(reply[1]);
  if (reply !== null && typeof reply === "object" && "maxmemory-policy" in reply)
    return String((reply as Record<string, unknown>)["maxmemory-policy"]);
  throw new Error(`CONFIG GET maxmemory-policy: unexpected answer ${JSON.stringify(reply)}`);
}
