import { describe, expect, it } from "vitest";
import { ReplyError, TransportError, type Backend } from "../../src/index.ts";
import { isNoScript } from "../../src/backend/backend.ts";

export interface BackendConformanceTarget {
  readonly name: string;
  makeBackend(): Backend | Promise<Backend>;
}

const live = () => new AbortController().signal;

/**
 * What the engine relies on from every backend: REST shapes for replies (integers as numbers,
 * bulk strings as strings, nil as null), error replies as `ReplyError`, and a cancelled request
 * reported as an ambiguous `TransportError` — never as a value.
 */
export function runBackendConformance(target: BackendConformanceTarget): void {
  describe(`Backend conformance: ${target.name}`, () => {
    it("returns integers, strings (UTF-8), nil and nested arrays in REST shapes", async () => {
      const backend = await target.makeBackend();
      const script = `return {1, 'h\\195\\169llo \\226\\156\\147', {'b', 2}, false, -7}`;
      const reply = await backend.command(["EVAL", script, 0], live());
      expect(reply).toEqual([1, "héllo ✓", ["b", 2], null, -7]);
      expect(await backend.command(["PING"], live())).toBe("PONG");
      expect(await backend.command(["TIME"], live())).toHaveLength(2);
    });

    it("keeps numeric-looking strings as strings (no JSON deserialization)", async () => {
      const backend = await target.makeBackend();
      expect(await backend.command(["EVAL", "return '123'", 0], live())).toBe("123");
      expect(await backend.command(["EVAL", "return '{\"a\":1}'", 0], live())).toBe('{"a":1}');
    });

    it("reports error replies as ReplyError, and NOSCRIPT recognisably", async () => {
      const backend = await target.makeBackend();
      const missing = await backend
        .command(["EVALSHA", "0".repeat(40), 0], live())
        .catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(ReplyError);
      expect(isNoScript(missing)).toBe(true);
      const failing = await backend
        .command(["EVAL", "return redis.error_reply('ERR custom failure')", 0], live())
        .catch((e: unknown) => e);
      expect(failing).toBeInstanceOf(ReplyError);
      expect((failing as Error).message).toContain("custom failure");
      expect(isNoScript(failing)).toBe(false);
    });

    it("a request whose signal is already aborted rejects as an ambiguous TransportError", async () => {
      const backend = await target.makeBackend();
      const controller = new AbortController();
      controller.abort(new Error("gave up"));
      const error = await backend.command(["PING"], controller.signal).then(
        (value) => ({ value }),
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(TransportError);
      expect((error as TransportError).ambiguous).toBe(true);
    });

    it("a request aborted in flight rejects instead of resolving with a placeholder", async () => {
      const backend = await target.makeBackend();
      const controller = new AbortController();
      // A script that runs long enough for the abort to land while the request is in flight.
      const slow = backend.command(
        [
          "EVAL",
          "local t = redis.call('TIME'); local s = t[1] * 1e6 + t[2]; while true do local n = redis.call('TIME'); if n[1] * 1e6 + n[2] - s > 150000 then break end end return 1",
          0,
        ],
        controller.signal,
      );
      setTimeout(() => controller.abort(new Error("gave up")), 20);
      const error = await slow.then(
        (value) => ({ value }),
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(TransportError);
      expect((error as TransportError).ambiguous).toBe(true);
    });
  });
}
