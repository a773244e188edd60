import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_CLIENT_OPTIONS, RECORD_MARGIN_SLACK_MS } from "../src/options-entry.ts";

// The README's "Client options" table quotes the defaults that `DEFAULT_CLIENT_OPTIONS` (from
// `@edgelock/core/options`) holds: one place in the code, one in the docs, held equal here.

const README = readFileSync(new URL("../README.md", import.meta.url), "utf8");

/** `| \`option\` | default | meaning |` rows of the table under "## Client options". */
function defaultsTable(): Map<string, string> {
  const section = README.split(/^## /m).find((s) => s.startsWith("Client options"));
  if (section === undefined) throw new Error('README.md has no "## Client options" section');
  const rows = new Map<string, string>();
  for (const line of section.split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    const option = /^`([\w.]+)`$/.exec(cells[1] ?? "")?.[1];
    if (option !== undefined) rows.set(option, cells[2] ?? "");
  }
  return rows;
}

const UNIT_MS: Readonly<Record<string, number>> = { min: 60_000, h: 3_600_000, days: 86_400_000 };

/** A default as the README writes it: `30_000`, `"prefix"`, `0` (off), `600_000` (10 min), 7 days. */
function readValue(text: string): unknown {
  const literal = /^`([^`]+)`/.exec(text)?.[1];
  if (literal !== undefined) return JSON.parse(literal.replaceAll("_", ""));
  const span = /^(\d+) (min|h|days)$/.exec(text);
  if (span) return Number(span[1]) * UNIT_MS[span[2]!]!;
  throw new Error(`unreadable default: ${text}`);
}

/** Each default, nested ones (`push.refusedBackoffMs`) by their dotted path. */
function flatten(value: object, path = ""): [string, unknown][] {
  return Object.entries(value).flatMap(([key, v]) =>
    typeof v === "object" && v !== null ? flatten(v, `${path}${key}.`) : [[`${path}${key}`, v]],
  );
}

// Defaults that are not constants: a function called per client, or a value derived from others.
const RESOLVED_PER_CLIENT: Readonly<Record<string, string>> = {
  redis: "required",
  keeper: "`timerKeeper()`",
  wait: "`justInTimeStrategy()`",
  wallClock: "`Date.now`",
  onEvent: "none",
  operationRecordTtlMs: `\`retryWindowMs + 2 × requestTimeoutMs + 2 × clockErrorMs + ${String(RECORD_MARGIN_SLACK_MS).replace(/(\d)(\d{3})$/, "$1_$2")}\``,
};

describe("README's client defaults", () => {
  const table = defaultsTable();

  it.each(flatten(DEFAULT_CLIENT_OPTIONS))("%s: the README quotes %s", (option, value) => {
    expect(table.has(option), `README row for ${option}`).toBe(true);
    expect(readValue(table.get(option)!)).toBe(value);
  });

  it("names every other option's default as the code resolves it", () => {
    const constants = new Set(flatten(DEFAULT_CLIENT_OPTIONS).map(([option]) => option));
    const others = [...table].filter(([option]) => !constants.has(option));
    expect(Object.fromEntries(others)).toEqual(RESOLVED_PER_CLIENT);
  });
});
