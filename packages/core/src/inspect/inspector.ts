import type { EdgelockClient } from "../client.ts";
import { InvalidArgumentError } from "../errors.ts";
import { validateName, validateObject } from "../validate.ts";
import { makeView, readParts, toDescription } from "./describe.ts";
import { globToRegExp } from "./glob.ts";
import { keyParser } from "./key-names.ts";
import { listPage } from "./list.ts";
import {
  DEFAULT_INSPECT_OPTIONS,
  resolveDescribe,
  resolveList,
  resolveListAll,
  validateKind,
} from "./options.ts";
import { KIND_INSPECTIONS } from "./kinds/all-kinds.ts";
import { mapLimit } from "./map-limit.ts";
import type {
  Description,
  DescribeOptions,
  ForceUnlockOptions,
  InspectKind,
  ListAllOptions,
  ListEntry,
  ListOptions,
  ListPage,
  Snapshot,
  SnapshotOptions,
} from "./types.ts";

/**
 * Read-only views of what lives under a client's prefix, for operators: who holds a name, since
 * when, who waits, and a force-unlock. Reads never change state; owner ids are masked unless
 * `revealOwners` is asked for, since an owner id is enough to release someone else's hold.
 */
export interface Inspector {
  /** The key prefix inspected (the client's). */
  readonly prefix: string;
  /** The kinds `forceUnlock` can act on (those with holds to take away). */
  readonly unlockableKinds: readonly InspectKind[];
  /** One page of names with their kind (SCAN-based, a bounded number of requests per call). */
  list(options?: ListOptions): Promise<ListPage>;
  /** Every name (deduplicated, sorted) up to `limit`, following the pages. */
  listAll(options?: ListAllOptions): Promise<{ entries: ListEntry[]; truncated: boolean }>;
  /**
   * Holders, fence, waiters, permits and count of `name`, read in one request; `null` when
   * nothing of that kind (or, without `kind`, of any kind) lives under the name.
   */
  describe(name: string, options?: DescribeOptions): Promise<Description | null>;
  /** `listAll` and a `describe` of each name found. */
  snapshot(options?: SnapshotOptions): Promise<Snapshot>;
  /**
   * Deletes every hold on `name` whoever holds it, and hands the lock to its first live waiter
   * (locks, fair locks and both sides of read-write locks). True when something was deleted. The
   * holder learns at its next renewal (its `signal` aborts).
   */
  forceUnlock(name: string, options?: ForceUnlockOptions): Promise<boolean>;
}

/**
 * The inspection API over a client's database and prefix. A function rather than a client method,
 * so a Worker that only takes locks does not bundle it.
 * @example
 * const inspector = inspect(edgelock);
 * const lock = await inspector.describe("orders:42");
 * console.log(lock?.holders[0]?.remainingMs);
 */
export function inspect(client: EdgelockClient): Inspector {
  if (typeof client !== "object" || client === null || typeof client.context !== "object") {
    throw new InvalidArgumentError("client", "must be a client made by createClient()");
  }
  const ctx = client.context;
  const parse = keyParser(ctx.prefix, KIND_INSPECTIONS);
  const partOf = (kind: InspectKind) => KIND_INSPECTIONS.find((p) => p.kind === kind);

  const inspector: Inspector = {
    prefix: ctx.prefix,
    unlockableKinds: KIND_INSPECTIONS.filter((p) => p.forceUnlock !== undefined).map((p) => p.kind),
    async list(options) {
      return listPage(ctx, parse, {
        ...resolveList(options),
        scans: DEFAULT_INSPECT_OPTIONS.scansPerPage,
      });
    },
    async listAll(options) {
      const { limit, match } = resolveListAll(options);
      const params = {
        cursor: "0",
        count: Math.min(limit, 1_000),
        match: globToRegExp("options.match", match),
        scans: 1,
      };
      const found = new Map<string, ListEntry>();
      let cursor: string | null = "0";
      for (
        let scans = 0;
        cursor !== null && scans < DEFAULT_INSPECT_OPTIONS.scansPerListAll && found.size <= limit;
        scans++
      ) {
        const page: ListPage = await listPage(ctx, parse, { ...params, cursor });
        for (const e of page.entries) found.set(`${e.kind}\u0000${e.name}`, e);
        cursor = page.next;
      }
      const entries = [...found.values()].sort((a, b) =>
        a.name === b.name ? a.kind.localeCompare(b.kind) : a.name < b.name ? -1 : 1,
      );
      return {
        entries: entries.slice(0, limit),
        truncated: entries.length > limit || cursor !== null,
      };
    },
    async describe(name, options) {
      validateName("name", name);
      const o = resolveDescribe(options);
      const kind = o.kind;
      const parts =
        kind === undefined ? KIND_INSPECTIONS : KIND_INSPECTIONS.filter((p) => p.kind === kind);
      const found = (await readParts(ctx, name, parts, o.limit)).find((r) => r.present);
      return found ? toDescription(name, found, makeView(o.revealOwners, o.limit)) : null;
    },
    async snapshot(options) {
      const o = validateObject("options", options) as SnapshotOptions;
      const listed = await inspector.listAll({
        ...(o.match === undefined ? {} : { match: o.match }),
        ...(o.limit === undefined ? {} : { limit: o.limit }),
      });
      const describeOptions = {
        ...(o.revealOwners === undefined ? {} : { revealOwners: o.revealOwners }),
      };
      const described = await mapLimit(listed.entries, DEFAULT_INSPECT_OPTIONS.concurrency, (e) =>
        inspector.describe(e.name, { ...describeOptions, kind: e.kind }),
      );
      return {
        descriptions: described.filter((d): d is Description => d !== null),
        truncated: listed.truncated,
      };
    },
    async forceUnlock(name, options) {
      validateName("name", name);
      const o = validateObject("options", options) as ForceUnlockOptions;
      const kind =
        o.kind === undefined
          ? (await inspector.describe(name))?.kind
          : validateKind("options.kind", o.kind);
      if (kind === undefined) return false;
      const unlock = partOf(kind)?.forceUnlock;
      if (!unlock)
        throw new InvalidArgumentError(
          o.kind === undefined ? "name" : "options.kind",
          `a ${kind} has no holds to force-unlock`,
        );
      return unlock(client, name);
    },
  };
  return inspector;
}
