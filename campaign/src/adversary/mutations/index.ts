import { LUA_MUTATIONS } from "./lua-mutations.ts";
import type { Mutation } from "./mutation.ts";
import { SEAM_MUTATIONS } from "./seam-mutations.ts";

export type { Mutation } from "./mutation.ts";
export { applyMutation } from "./apply.ts";

/** Every mutation the checker must see (campaign/test/mutations.test.ts). */
export const MUTATIONS: readonly Mutation[] = [...LUA_MUTATIONS, ...SEAM_MUTATIONS];
