import { existsSync, writeFileSync } from "node:fs";
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
  // The record-TTL slack the configs name (the old floor was retryWindowMs + 1), in the module
  // today's core keeps it in (an old core had no client-options.ts).
  const options = join(coreSrc, "client-options.ts");
  if (!existsSync(options))
    writeFileSync(options, "export const RECORD_MARGIN_SLACK_MS = 1_000;\n");
  // No `client.resumeHold()` then: each handle had its own `resume()`. The entry the campaign
  // imports (redirect-core.mjs sends "@edgelock/core" here) adds it, by the old kind names.
  if (!existsSync(join(coreSrc, "serialized-hold")))
    writeFileSync(join(coreSrc, RESUME_HOLD_ENTRY), RESUME_HOLD_SHIM);
}

/** The old core's entry with `resumeHold()` added (a local export shadows the star export). */
export const RESUME_HOLD_ENTRY = "index-with-resume-hold.ts";
const RESUME_HOLD_SHIM = `import * as core from "./index.ts";
export * from "./index.ts";
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
export function createClient(options: Any): Any {
  const c: Any = core.createClient(options);
  c.resumeHold = (h: Any) => {
    switch (h.kind) {
      case "lock": return c.lock(h.name).resume(h);
      case "fair-lock": return c.fairLock(h.name).resume(h);
      case "read-lock": return c.readWriteLock(h.name).read.resume(h);
      case "write-lock": return c.readWriteLock(h.name).write.resume(h);
      case "multi-lock": return c.multiLock(h.names).resume(h);
      case "semaphore": return c.semaphore(h.name).resume(h);
      case "permit": return c.permitExpirableSemaphore(h.name).resume(h);
      default: throw new Error("the old core cannot resume a " + String(h.kind));
    }
  };
  return c;
}
`;
