import { describe, expect, it } from "vitest";

// The core must run on any runtime with Web-standard globals: no Node built-ins, and no
// long-lived timer (a Worker's isolate is not a process; renewals belong to a keeper).
const sources = import.meta.glob<string>("../../core/src/**/*.ts", {
  query: "?raw",
  import: "default",
  eager: true,
});

describe("@edgelock/core source", () => {
  const files = Object.entries(sources);

  it("is found", () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it.each(files.map(([path, text]) => [path.replace("../../core/", ""), text] as const))(
    "%s imports no node: module and calls no setInterval",
    (_path, text) => {
      const code = stripComments(text);
      expect(code).not.toMatch(/(?:from|import)\s*\(?\s*["']node:/);
      expect(code).not.toMatch(/require\(\s*["']node:/);
      expect(code).not.toMatch(/\bsetInterval\s*\(/);
      expect(code).not.toMatch(/\.unref\s*\(/);
    },
  );
});

function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}
