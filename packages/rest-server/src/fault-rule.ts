/** A fault the server injects into data-plane requests (see docs/contracts/harness.md). */
export type FaultRule =
  /** Every request until cleared: half the delay before executing, half after. */
  | { readonly kind: "latency"; readonly ms: number; readonly jitterMs?: number }
  /** Answer `status` (default 502) without executing. */
  | {
      readonly kind: "fail-before";
      readonly times?: number;
      readonly status?: number;
      readonly match?: string;
    }
  /** Execute, then answer `status` (default 502) instead of the result. */
  | {
      readonly kind: "fail-after";
      readonly times?: number;
      readonly status?: number;
      readonly match?: string;
    }
  /** Execute, then destroy the socket: the client gets no HTTP response at all. */
  | { readonly kind: "drop-after"; readonly times?: number; readonly match?: string }
  /** Destroy the socket without executing. */
  | { readonly kind: "drop-before"; readonly times?: number; readonly match?: string }
  /** Never answer (until the client gives up); with `execute: true` the command runs first. */
  | {
      readonly kind: "hang";
      readonly times?: number;
      readonly match?: string;
      readonly execute?: boolean;
    }
  /** `SCRIPT FLUSH` now; not kept as a rule. */
  | { readonly kind: "flush-scripts" };

/** The rules that decide what happens to one request (all but latency and flush-scripts). */
export type ActionRule = Exclude<FaultRule, { readonly kind: "latency" | "flush-scripts" }>;

export const DEFAULT_FAULT_STATUS = 502;

/** Thrown for a rule that does not fit {@link FaultRule}; the control endpoint answers 400. */
export class FaultRuleError extends Error {
  override readonly name = "FaultRuleError";
}

const ACTION_KINDS = new Set(["fail-before", "fail-after", "drop-after", "drop-before", "hang"]);

/** Validates one rule received as JSON, naming the field and unit that is wrong. */
export function validateFaultRule(input: unknown): FaultRule {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new FaultRuleError("a fault rule must be an object with a `kind`");
  }
  const rule = input as Record<string, unknown>;
  const kind = rule["kind"];
  if (kind === "flush-scripts") return { kind };
  if (kind === "latency") {
    const ms = integerField(rule, "ms", 0, true);
    const jitterMs = integerField(rule, "jitterMs", 0, false);
    return jitterMs === undefined ? { kind, ms: ms! } : { kind, ms: ms!, jitterMs };
  }
  if (typeof kind !== "string" || !ACTION_KINDS.has(kind)) {
    throw new FaultRuleError(`unknown fault kind ${JSON.stringify(kind)}`);
  }
  const out: Record<string, unknown> = { kind };
  const times = integerField(rule, "times", 1, false);
  if (times !== undefined) out["times"] = times;
  const match = rule["match"];
  if (match !== undefined) {
    if (typeof match !== "string" || match.length === 0) {
      throw new FaultRuleError("`match` must be a non-empty string");
    }
    out["match"] = match;
  }
  if (kind === "fail-before" || kind === "fail-after") {
    const status = integerField(rule, "status", 400, false);
    if (status !== undefined && status > 599) {
      throw new FaultRuleError("`status` must be an HTTP status from 400 to 599");
    }
    if (status !== undefined) out["status"] = status;
  }
  if (kind === "hang" && rule["execute"] !== undefined) {
    if (typeof rule["execute"] !== "boolean") {
      throw new FaultRuleError("`execute` must be a boolean");
    }
    out["execute"] = rule["execute"];
  }
  return out as FaultRule;
}

function integerField(
  rule: Record<string, unknown>,
  name: string,
  min: number,
  required: boolean,
): number | undefined {
  const value = rule[name];
  if (value === undefined && !required) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
    const unit = name.endsWith("Ms") || name === "ms" ? " (milliseconds)" : "";
    throw new FaultRuleError(
      `\`${name}\` must be an integer >= ${min}${unit}, got ${JSON.stringify(value)}`,
    );
  }
  return value;
}
