import {
  FaultRuleError,
  validateFaultRule,
  type ActionRule,
  type FaultRule,
} from "./fault-rule.ts";

/** The fault rules of one app: `add`, `clear`, `list` (also driven over HTTP by the control endpoints). */
export interface FaultController {
  /** Validates and arms rules; a `flush-scripts` rule runs `SCRIPT FLUSH` before this resolves. */
  add(rule: FaultRule | readonly FaultRule[]): Promise<void>;
  /** Disarms every rule. */
  clear(): void;
  /** The armed rules, `times` showing how many uses remain. */
  list(): FaultRule[];
}

interface ArmedAction {
  readonly rule: ActionRule;
  remaining: number;
}

/**
 * Holds the armed rules and decides, per request, which one applies. Only one action rule is
 * consumed per request — the oldest armed one whose `match` is found in the request text — while
 * every latency rule applies to every request.
 */
export class Faults implements FaultController {
  #latency: Extract<FaultRule, { kind: "latency" }>[] = [];
  #actions: ArmedAction[] = [];

  readonly #enabled: boolean;
  readonly #flushScripts: () => Promise<void>;

  constructor(enabled: boolean, flushScripts: () => Promise<void>) {
    this.#enabled = enabled;
    this.#flushScripts = flushScripts;
  }

  async add(rule: FaultRule | readonly FaultRule[]): Promise<void> {
    if (!this.#enabled) {
      throw new FaultRuleError(
        "fault injection is disabled: create the server with enableFaults: true",
      );
    }
    // Validate everything first so a bad rule in a list arms none of them.
    const rules = (Array.isArray(rule) ? rule : [rule]).map((r: unknown) => validateFaultRule(r));
    for (const valid of rules) {
      if (valid.kind === "flush-scripts") await this.#flushScripts();
      else if (valid.kind === "latency") this.#latency.push(valid);
      else this.#actions.push({ rule: valid, remaining: valid.times ?? 1 });
    }
  }

  clear(): void {
    this.#latency = [];
    this.#actions = [];
  }

  list(): FaultRule[] {
    return [
      ...this.#latency,
      ...this.#actions.map(({ rule, remaining }) => ({ ...rule, times: remaining })),
    ];
  }

  /** Consumes and returns the action rule for a request whose raw text is `text`, if any. */
  take(text: string): ActionRule | undefined {
    const haystack = text.toLowerCase();
    const armed = this.#actions.find(
      ({ rule }) => rule.match === undefined || haystack.includes(rule.match.toLowerCase()),
    );
    if (armed === undefined) return undefined;
    armed.remaining -= 1;
    if (armed.remaining <= 0) this.#actions = this.#actions.filter((a) => a !== armed);
    return armed.rule;
  }

  /** Total injected latency for one request, in milliseconds (jitter drawn per rule). */
  latencyMs(): number {
    return this.#latency.reduce(
      (sum, { ms, jitterMs = 0 }) => sum + ms + Math.floor(Math.random() * (jitterMs + 1)),
      0,
    );
  }
}
