import { readFileSync, writeFileSync } from "node:fs";
import { sizeSection } from "../report/markdown.ts";
import type { SizeReport } from "./main.ts";

/** Replaces `file`'s bundle-size section (its heading up to the next `## `) with `sizes`'. */
export function writeSizeSection(file: string, sizes: readonly SizeReport[]): void {
  const text = readFileSync(file, "utf8");
  const start = text.indexOf("## Bundle size");
  const end = text.indexOf("\n## ", start + 1);
  if (start < 0 || end < 0) throw new Error(`${file} has no bundle-size section to rewrite`);
  writeFileSync(file, text.slice(0, start) + sizeSection(sizes) + text.slice(end));
}
