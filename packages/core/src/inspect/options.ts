import { InvalidArgumentError } from "../errors.ts";
import { validateInteger, validateObject } from "../validate.ts";
import { globToRegExp } from "./glob.ts";
import { KIND_INSPECTIONS } from "./kinds/all-kinds.ts";
import type { DescribeOptions, InspectKind, ListAllOptions, ListOptions } from "./types.ts";

export const DEFAULT_INSPECT_OPTIONS = Object.freeze({
  /** Entries per `list()` page. */
  count: 100,
  /** Names per `listAll()` / `snapshot()`. */
  limit: 1_000,
  /** Holders and waiters per name. */
  describeLimit: 100,
  /** SCAN calls one `list()` page may make before it returns what it has. */
  scansPerPage: 8,
  /** SCAN calls one `listAll()` may make in all (about a million keys at the largest hint). */
  scansPerListAll: 1_000,
  /** Describes in flight at once in `snapshot()`. */
  concurrency: 8,
});

export const MAX_LIST_COUNT = 1_000;
export const MAX_LIST_ALL = 10_000;
export const MAX_DESCRIBE_LIMIT = 1_000;

export function resolveList(options: unknown) {
  const o = validateObject("options", options) as ListOptions;
  if (o.cursor !== undefined && (typeof o.cursor !== "string" || !/^\d{1,20}$/.test(o.cursor))) {
    throw new InvalidArgumentError(
      "options.cursor",
      "must be the decimal cursor string of a previous page's `next`",
    );
  }
  return {
    cursor: o.cursor ?? "0",
    count: validateInteger(
      "options.count",
      o.count ?? DEFAULT_INSPECT_OPTIONS.count,
      1,
      MAX_LIST_COUNT,
    ),
    match: globToRegExp("options.match", o.match ?? "*"),
  };
}

export function resolveListAll(options: unknown) {
  const o = validateObject("options", options) as ListAllOptions;
  return {
    limit: validateInteger(
      "options.limit",
      o.limit ?? DEFAULT_INSPECT_OPTIONS.limit,
      1,
      MAX_LIST_ALL,
    ),
    match: o.match ?? "*",
  };
}

export function resolveDescribe(options: unknown) {
  const o = validateObject("options", options) as DescribeOptions;
  if (o.revealOwners !== undefined && typeof o.revealOwners !== "boolean") {
    throw new InvalidArgumentError("options.revealOwners", "must be a boolean");
  }
  return {
    kind: o.kind === undefined ? undefined : validateKind("options.kind", o.kind),
    revealOwners: o.revealOwners ?? false,
    limit: validateInteger(
      "options.limit",
      o.limit ?? DEFAULT_INSPECT_OPTIONS.describeLimit,
      1,
      MAX_DESCRIBE_LIMIT,
    ),
  };
}

export function validateKind(argument: string, kind: unknown): InspectKind {
  const kinds = KIND_INSPECTIONS.map((p) => p.kind);
  if (!kinds.includes(kind as InspectKind))
    throw new InvalidArgumentError(
      argument,
      `must be one of ${kinds.join(", ")}, got ${String(kind)}`,
    );
  return kind as InspectKind;
}
