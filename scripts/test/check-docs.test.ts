import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkDocs, writeFileBlocks, type DocsReport } from "../docs/check-docs.ts";
import { ROOT } from "../lib/public-packages.ts";
import { makeSnippetProject } from "../docs/snippet-project.ts";

// The checker itself, on a page with one mistake of each kind. The packages are linked from the
// workspace (no build needed); `pnpm check:docs` uses the packed ones.
describe("check:docs", () => {
  let project: string;
  let report: DocsReport;
  beforeAll(async () => {
    project = await makeSnippetProject({ source: "workspace" });
    report = await checkDocs(["scripts/test/fixtures/docs.md"], project);
  }, 60_000);
  afterAll(() => rm(project, { recursive: true, force: true }));

  const at = (line: number) =>
    report.failures.filter((f) => f.file === "scripts/test/fixtures/docs.md" && f.line === line);

  it("reports a name the snippet never imports, at its line in the Markdown file", () => {
    expect(at(6).map((f) => f.message)).toEqual([
      expect.stringMatching(/^TS2304: Cannot find name 'createClient'/),
    ]);
  });

  it("reports a wrong argument type against the packages' declarations", () => {
    expect(at(21).map((f) => f.message)).toEqual([expect.stringMatching(/^TS2322: /)]);
  });

  it("refuses a skip without a reason (and checks its block), and records a skip with one", () => {
    expect(at(24).map((f) => f.message)).toEqual([expect.stringMatching(/needs a reason/)]);
    expect(at(27).length).toBeGreaterThan(0);
    expect(report.skipped).toEqual([
      { file: "scripts/test/fixtures/docs.md", line: 32, reason: "pseudo-code on purpose" },
    ]);
  });

  it("reports a block that differs from the file it says it is", () => {
    expect(at(39).map((f) => f.message)).toEqual([
      expect.stringMatching(/differs from scripts\/test\/fixtures\/included\.ts \(line 1\)/),
    ]);
  });

  it("passes the correct snippet and leaves other languages alone", () => {
    expect(new Set(report.failures.map((f) => f.line))).toEqual(new Set([6, 21, 24, 27, 39]));
    expect(report.checked).toBe(4); // the three plain blocks, and the one with a reasonless skip
    expect(report.verbatim).toBe(2); // the whole file (differs), and a region of it (same)
  });

  it("--write copies each file into its block", async () => {
    const root = await mkdtemp(join(tmpdir(), "edgelock-docs-write-"));
    try {
      await cp(join(ROOT, "scripts/test/fixtures"), join(root, "scripts/test/fixtures"), {
        recursive: true,
      });
      const page = "scripts/test/fixtures/docs.md";
      expect(await writeFileBlocks([page], root)).toEqual([page]);
      expect(await readFile(join(root, page), "utf8")).toContain("export const answer = 42;");
      const after = await checkDocs([page], project, root);
      expect(after.failures.filter((f) => /differs from/.test(f.message))).toEqual([]);
      expect(await writeFileBlocks([page], root)).toEqual([]); // nothing left to copy
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
