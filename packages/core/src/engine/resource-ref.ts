import type { ClientContext } from "../client-context.ts";

/**
 * Everything a primitive's script calls need to talk about one named resource: the client that
 * reaches it, its name, and the keys the name maps to (keys.ts).
 */
export interface ResourceRef<Keys> {
  readonly ctx: ClientContext;
  readonly name: string;
  readonly keys: Keys;
}

/**
 * How one primitive's calls name themselves in errors and events, e.g. `semaphore acquire "jobs"`
 * (the Lock's own calls have no kind word: `acquire "orders:42"`).
 */
export function callLabel(kind: string): (ref: { readonly name: string }, call: string) => string {
  const lead = kind === "" ? "" : `${kind} `;
  return (ref, call) => `${lead}${call} "${ref.name}"`;
}
