import type { Inspector } from "@edgelock/core";
import type { ResolvedInspectorOptions } from "./options.ts";

/** Per-request values set by the app's middleware. */
export type AppEnv = { Variables: { nonce: string; authed: boolean } };

/** What every route needs. */
export interface Deps {
  readonly inspector: Inspector;
  readonly options: ResolvedInspectorOptions;
}
