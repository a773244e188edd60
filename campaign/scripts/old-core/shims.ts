import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The thin compatibility layer the campaign needs from a core older than the protocol engine
 * (c6a5b43), written into that throw-away checkout: modules the campaign imports that did not
 * exist then. Options that did not exist (`clockErrorMs`) need nothing: old clients ignore them.
 */
export function writeShims(coreSrc: string): void {
  // No engine scripts then (no settle): nothing to preload or to name.
  writeFileSync(join(coreSrc, "engine/scripts.generated.ts"), "export {};\n");
  // No seams: the old core is run as it was.
  writeFileSync(
    join(coreSrc, "test-seams.ts"),
    "export const testSeams: Record<string, boolean> = {};\n",
  );
  // The record-TTL slack the configs name (the old floor was retryWindowMs + 1).
  const context = join(coreSrc, "context.ts");
  if (!readFileSync(context, "utf8").includes("RECORD_MARGIN_SLACK_MS"))
    appendFileSync(context, "\nexport const RECORD_MARGIN_SLACK_MS = 1_000;\n");
}
