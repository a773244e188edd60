// Module resolve hook (node:module register): every module of the core under test
// (<repo>/packages/core/src/…, reached as "@edgelock/core" or by the campaign's deep imports)
// resolves to the same path in EDGELOCK_OLD_CORE_SRC instead: another checkout's core.
import process from "node:process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { existsSync } from "node:fs";
import { relative, resolve, sep } from "node:path";

const OLD = process.env.EDGELOCK_OLD_CORE_SRC;
const CURRENT = resolve(fileURLToPath(import.meta.url), "../../../../packages/core/src");

export async function resolve_(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (!OLD || !resolved.url.startsWith("file:")) return resolved;
  const path = fileURLToPath(resolved.url);
  if (!path.startsWith(CURRENT + sep)) return resolved;
  let target = resolve(OLD, relative(CURRENT, path));
  // The package entry, for everyone but the shim that wraps it (shims.ts: resumeHold()).
  const withResumeHold = resolve(OLD, "index-with-resume-hold.ts");
  if (
    target === resolve(OLD, "index.ts") &&
    existsSync(withResumeHold) &&
    context.parentURL !== pathToFileURL(withResumeHold).href
  )
    target = withResumeHold;
  if (!existsSync(target))
    throw new Error(`the old core has no ${relative(CURRENT, path)} (add a shim)`);
  return { ...resolved, url: pathToFileURL(target).href };
}
export { resolve_ as resolve };
