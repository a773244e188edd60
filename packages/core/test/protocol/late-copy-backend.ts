import { TransportError, type Backend } from "../../src/index.ts";

type Args = readonly (string | number)[];

/** What happens to a request that matches a rule. */
export type LateAction =
  /** Not sent now: the caller sees it time out (ambiguous); it runs at `deliver()`. */
  | { readonly kind: "hold" }
  /** Runs, then the caller sees an ambiguous failure (the response was lost). */
  | { readonly kind: "drop-after" }
  /** Runs only after `ms` (a request slow on its way to the server). */
  | { readonly kind: "delay"; readonly ms: number }
  /** Runs now; its reply reaches the caller only after `ms` (slow on its way back). */
  | { readonly kind: "delay-reply"; readonly ms: number };

interface Rule {
  readonly match: (args: Args) => boolean;
  readonly action: LateAction;
  remaining: number;
}

/**
 * A test `Backend` wrapper that reorders requests of one client the way a network does: a copy
 * executed after the client gave up on it, after its retry, after later requests. It wraps any
 * backend, so REST and TCP get the same faults, matched per request.
 */
export function lateCopyBackend(inner: Backend) {
  const rules: Rule[] = [];
  const held: Args[] = [];
  let matched = 0;
  const backend: Backend = {
    kind: inner.kind,
    ...(inner.subscribe ? { subscribe: inner.subscribe.bind(inner) } : {}),
    async command(args, signal) {
      const rule = rules.find((r) => r.remaining > 0 && r.match(args));
      if (rule === undefined) return inner.command(args, signal);
      rule.remaining--;
      matched++;
      const { action } = rule;
      if (action.kind === "hold") {
        held.push(args);
        return new Promise((_, reject) => {
          const fail = () =>
            reject(new TransportError("held back (runs later)", { ambiguous: true }));
          if (signal.aborted) fail();
          else signal.addEventListener("abort", fail, { once: true });
        });
      }
      if (action.kind === "delay") await new Promise((r) => setTimeout(r, action.ms));
      const reply = await inner.command(args, new AbortController().signal);
      if (action.kind === "delay-reply") await new Promise((r) => setTimeout(r, action.ms));
      if (action.kind === "drop-after")
        throw new TransportError("response lost after executing", { ambiguous: true });
      return reply;
    },
  };
  return {
    backend,
    /** Applies `action` to the next `times` requests that match. */
    on(match: (args: Args) => boolean, action: LateAction, times = 1): void {
      rules.push({ match, action, remaining: times });
    },
    /** Disarms every rule (held requests stay held). */
    clear(): void {
      rules.length = 0;
    },
    /** How many requests matched a rule so far (held, delayed or dropped). */
    get matched(): number {
      return matched;
    },
    /** How many requests are held back. */
    get heldCount(): number {
      return held.length;
    },
    /** Runs every held request now, in the order they were sent; their replies go nowhere. */
    async deliver(): Promise<unknown[]> {
      const out: unknown[] = [];
      for (const args of held.splice(0)) {
        out.push(await inner.command(args, new AbortController().signal).catch((e: unknown) => e));
      }
      return out;
    },
  };
}

/** A request running `script` (by SHA or by source) whose slots include every one of `values`. */
export function runs(script: { sha: string; source: string }, ...values: (string | number)[]) {
  return (args: Args): boolean =>
    (args[1] === script.sha || args[1] === script.source) &&
    values.every((v) => args.slice(2).some((a) => String(a) === String(v)));
}
