import type { ClientContext } from "../client-context.ts";
import type { HandleOwner } from "../ids.ts";
import { lockKeys, slotTagOf } from "../keys.ts";
import type { SlotGroup } from "./group.ts";
import { singleGroup } from "./single-group.ts";
import { slotGroup } from "./calls.ts";

/** Everything needed to talk about one multi-lock as one owner. */
export interface MultiRef {
  readonly ctx: ClientContext;
  readonly owner: string;
  /** Other handles may act as this owner too (see `HandleOwner`). */
  readonly ownerShared: boolean;
  /** For errors and events: the names, in acquisition order. */
  readonly label: string;
  /** Deduplicated, in acquisition order: groups by hash tag, names by key within a group. */
  readonly names: readonly string[];
  readonly groups: readonly SlotGroup[];
}

/**
 * The deterministic order every multi-lock uses: names grouped by hash tag, groups by tag, names
 * by key inside a group. Any two multi-locks meet their common names (and groups) in the same
 * order, whatever order their callers listed them in.
 */
export function planGroups(ctx: ClientContext, names: readonly string[]): SlotGroup[] {
  const byTag = new Map<string, string[]>();
  const key = (name: string) => lockKeys(ctx.prefix, name).lock;
  for (const name of [...new Set(names)].sort((a, b) => compare(key(a), key(b)))) {
    const tag = slotTagOf(name);
    byTag.set(tag, [...(byTag.get(tag) ?? []), name]);
  }
  return [...byTag.entries()]
    .sort(([a], [b]) => compare(a, b))
    .map(([tag, group]) =>
      group.length === 1 ? singleGroup(ctx, tag, group[0]!) : slotGroup(ctx, tag, group),
    );
}

export function makeMultiRef(
  ctx: ClientContext,
  names: readonly string[],
  owner: HandleOwner,
): MultiRef {
  const groups = planGroups(ctx, names);
  const ordered = groups.flatMap((g) => g.names);
  const who = { owner: owner.id, ownerShared: owner.shared };
  return { ctx, ...who, names: ordered, groups, label: labelOf(ordered) };
}

/** The fences of `fences` (in `ref.names` order) that belong to each group, group by group. */
export function splitByGroup(ref: MultiRef, fences: readonly number[]): number[][] {
  let offset = 0;
  return ref.groups.map((g) => {
    const slice = fences.slice(offset, offset + g.names.length);
    offset += g.names.length;
    return slice;
  });
}

function labelOf(names: readonly string[]): string {
  const shown = names.slice(0, 5).join(", ");
  return `[${shown}${names.length > 5 ? `, … ${names.length - 5} more` : ""}]`;
}

// Plain code-unit order: the same in every runtime and locale.
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
