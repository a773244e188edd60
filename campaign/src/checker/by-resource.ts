import type { History, SectionRecord } from "../history/types.ts";

/** Sections grouped by the resources they held, each list in order of entry. */
export function sectionsByResource(history: History): Map<string, SectionRecord[]> {
  const map = new Map<string, SectionRecord[]>();
  for (const section of history.sections) {
    for (const resource of section.resources) {
      const list = map.get(resource) ?? [];
      list.push(section);
      map.set(resource, list);
    }
  }
  for (const list of map.values()) list.sort((a, b) => a.enterSeq - b.enterSeq);
  return map;
}

/** `b` (entered later) entered while `a` was still open. */
export const overlapping = (a: SectionRecord, b: SectionRecord): boolean =>
  b.enterSeq < (a.exitSeq ?? Infinity);

export const describe = (s: SectionRecord): string =>
  `#${s.id} ${s.primitive} by ${s.worker} [${s.enterSeq}..${s.exitSeq ?? "open"}] ${s.end ?? "open"}${s.toldHow ? ` (${s.toldHow})` : ""}`;
