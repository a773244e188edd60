/**
 * What the inspection API returns. Owner ids are bearer secrets of a hold (whoever knows one can
 * release or extend it), so every owner is masked with `maskId` unless `revealOwners` is asked for.
 */

import type { PrimitiveKind } from "../kinds.ts";

/**
 * The kinds of state a name can hold; one `KindInspection` per kind (see `kinds/`). A multi-lock
 * keeps no state of its own: its names show as the locks they are.
 */
export type InspectKind = Exclude<PrimitiveKind, "multi-lock">;

/** One name found under the prefix, with the kind of state it holds. */
export interface ListEntry {
  readonly name: string;
  readonly kind: InspectKind;
}

/** Options of `inspector.list()`. */
export interface ListOptions {
  /** Where to continue: the `next` of the previous page. @default undefined (the first page) */
  readonly cursor?: string;
  /** Entries wanted per page (SCAN's COUNT hint is derived from it); between 1 and 1000. @default 100 */
  readonly count?: number;
  /** Glob on names (Redis syntax: `*`, `?`, `[abc]`, `[^a]`, `\x`). @default "*" */
  readonly match?: string;
}

/** One page of `list()`. A name may appear on two pages (as with SCAN): dedupe across pages. */
export interface ListPage {
  readonly entries: readonly ListEntry[];
  /** Cursor of the next page; `null` when the scan is complete. */
  readonly next: string | null;
}

/** Options of `inspector.listAll()`. */
export interface ListAllOptions {
  /** Glob on names. @default "*" */
  readonly match?: string;
  /** Most entries returned; the rest is reported as `truncated`. Between 1 and 10 000. @default 1000 */
  readonly limit?: number;
}

/** Options of `inspector.describe()` and `inspector.snapshot()`. */
export interface DescribeOptions {
  /** Which kind to describe; detected from the keys (first kind present) when absent. */
  readonly kind?: InspectKind;
  /** Show owner ids in full. They let anyone who sees them release the hold. @default false */
  readonly revealOwners?: boolean;
  /** Most holders and waiters returned per name; between 1 and 1000. @default 100 */
  readonly limit?: number;
}

/** One hold on a name. */
export interface Holder {
  /** Owner id (a permit id for a permit-expirable semaphore, a token for a quorum lock); masked by default. */
  readonly owner: string;
  /** Nested holds of this owner (permits, for a semaphore's reserved grant). */
  readonly count: number;
  /** Lease left, ms; -1 when the hold has no expiry. */
  readonly remainingMs: number;
  /** The hold's fencing token, when the primitive stores one. */
  readonly fence: number | null;
  /** exclusive (lock, fair lock, quorum lock), read or write (read-write lock), permit (semaphores). */
  readonly mode: "exclusive" | "read" | "write" | "permit";
  /** False for a direct grant reserved for a waiter that has not claimed it yet. */
  readonly claimed: boolean;
}

/** One live waiter, in queue order. */
export interface Waiter {
  /** Owner (or waiter) id; masked by default. */
  readonly owner: string;
  /** 1-based place among the live waiters. */
  readonly position: number;
  /** Time left until the poll deadline this waiter declared, ms; missing it drops the waiter. */
  readonly deadlineMs: number;
  /** Permits asked for (1 for locks). */
  readonly permits: number;
}

/** Everything known about one name of one kind, read in one request. */
export interface Description {
  readonly name: string;
  readonly kind: InspectKind;
  /** Holds, ordered as the primitive orders them (writer first; readers and permits by expiry). */
  readonly holders: readonly Holder[];
  /** The last fencing token issued for this name, or `null` (none kept, or the primitive has none). */
  readonly fence: number | null;
  /** Live waiters in the order they will be served. */
  readonly waiters: readonly Waiter[];
  /** For semaphores: permits free now and configured in total; `null` for other kinds. */
  readonly permits: { readonly available: number; readonly total: number } | null;
  /** For a count-down latch: its count; `null` for other kinds. */
  readonly count: number | null;
  /** True when there were more holders or waiters than `limit`. */
  readonly truncated: boolean;
}

/** Options of `inspector.forceUnlock()`. */
export interface ForceUnlockOptions {
  /** Which kind to unlock; detected (first kind present) when absent. */
  readonly kind?: InspectKind;
}

/** Options of `inspector.snapshot()`: which names (as `listAll`), and whether to reveal owners. */
export interface SnapshotOptions extends ListAllOptions {
  /** As `describe`'s. @default false */
  readonly revealOwners?: boolean;
}

/** What `inspector.snapshot()` returns: every name found, described. */
export interface Snapshot {
  readonly descriptions: readonly Description[];
  /** True when more names matched than `limit`. */
  readonly truncated: boolean;
}
