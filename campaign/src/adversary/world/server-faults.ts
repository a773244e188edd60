import type { FaultRule } from "@edgelock/testkit";
import type { Random } from "../../random.ts";
import type { ScriptCall } from "./script-call.ts";

/**
 * Faults the rest-server itself injects into one request (its `/__edgelock/faults` rules, armed
 * per request with `times: 1` and a `match` only that request carries): what a real HTTP path
 * does, beside the scheduler's own fates. REST only: a TCP client has no rest-server in its path.
 */
export type ServerFaultKind =
  /** 5xx without executing. */
  | "fail-before"
  /** Executes, then 5xx instead of the reply. */
  | "fail-after"
  /** Executes, then the connection drops: no HTTP response at all. */
  | "drop-after"
  /** Never answers, never executes, until the client gives up. */
  | "hang"
  /** Executes, then never answers until the client gives up. */
  | "hang-after";

export const SERVER_FAULT_KINDS: readonly ServerFaultKind[] = [
  "fail-before",
  "fail-after",
  "drop-after",
  "hang",
  "hang-after",
];

export function pickServerFault(random: Random): ServerFaultKind {
  return random.pick(SERVER_FAULT_KINDS);
}

/** A hang lasts until the client gives up: the copy must be cut with the client's own signal. */
export const isHang = (kind: ServerFaultKind): boolean => kind === "hang" || kind === "hang-after";

/**
 * The rule for one copy of `call`. Its match is the call's operation-record key (or its first
 * key): the scheduler runs script copies one at a time, so only this copy can take the rule, and
 * runs sharing the server use distinct key prefixes.
 */
export function serverFaultRule(kind: ServerFaultKind, call: ScriptCall): FaultRule {
  const match = call.keys.find((key) => key.includes(":op:")) ?? call.keys[0] ?? call.script;
  switch (kind) {
    case "fail-before":
    case "fail-after":
      return { kind, times: 1, match, status: 502 };
    case "drop-after":
      return { kind, times: 1, match };
    case "hang":
      return { kind: "hang", times: 1, match };
    case "hang-after":
      return { kind: "hang", times: 1, match, execute: true };
  }
}
