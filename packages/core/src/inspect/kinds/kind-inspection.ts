import type { EdgelockClient } from "../../client.ts";
import type { Reads, ReadSpec } from "../reads.ts";
import type { Description, InspectKind } from "../types.ts";

/** How a kind's inspection shows ids and how much it returns. */
export interface View {
  /** Masks an owner id, unless owners are revealed. */
  owner(id: string): string;
  /** Most holders and waiters per name. */
  readonly limit: number;
}

export type KindDescription = Omit<Description, "name" | "kind">;

/**
 * One primitive's contribution to inspection: which of its keys to read (through the shared,
 * read-only `describe.lua`), which of them mean "this kind lives here", and how to turn the
 * reads into a `Description`. Adding a primitive adds one such file and one line in `index.ts`.
 */
export interface KindInspection {
  readonly kind: InspectKind;
  /** What to read for `name`, every key from `keys.ts`. */
  plan(prefix: string, name: string): readonly ReadSpec[];
  /** Indices into the plan of the keys whose existence means this kind lives under the name. */
  readonly primary: readonly number[];
  decode(reads: Reads, view: View): KindDescription;
  /** Deletes every hold, whoever holds it; absent when the kind has no holds to take away. */
  forceUnlock?(client: EdgelockClient, name: string): Promise<boolean>;
}
