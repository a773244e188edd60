import type { History, ReadRecord, SectionRecord, WriteRecord } from "../history/types.ts";
import { describe } from "./by-resource.ts";
import { staleExcuse, type Excuse } from "./excuses.ts";
import type { ResolvedCheckOptions } from "./options.ts";
import { groupBy } from "./group-by.ts";
import { violation, type Violation } from "./violation.ts";

/**
 * What the fenced resource saw. (1) It behaved as specified: replaying its writes in its own
 * order accepts exactly the writes it accepted (a write is accepted when its fence is among the
 * `capacity` highest seen). (2) A holder that was never told of a loss never had a write rejected:
 * a rejection means a newer fence wrote while it held. (3) A frozen holder writing after its
 * lease had run out had already been told (its signal aborted at its local deadline).
 */
export function checkWrites(
  history: History,
  options: ResolvedCheckOptions,
  excused: Record<Excuse, number>,
): Violation[] {
  const violations: Violation[] = [];
  const sections = new Map(history.sections.map((s) => [s.id, s]));
  const byResource = groupBy(history.writes, (w) => w.resource);
  for (const [resource, writes] of byResource) {
    const capacity = sections.get(writes[0]!.section)?.capacity ?? 1;
    violations.push(...replay(resource, writes, capacity));
  }
  for (const write of history.writes) {
    const section = sections.get(write.section);
    if (!section) continue;
    if (section.thawSeq !== undefined && write.seq > section.thawSeq && !write.afterTold) {
      violations.push(
        violation(
          "frozen-not-told",
          `${describe(section)} wrote after freezing past its lease but its signal had not aborted`,
        ),
      );
    }
    if (write.accepted || write.afterTold) continue;
    const excuse = staleExcuse(history, section, write.seq, options);
    if (excuse) excused[excuse]++;
    else
      violations.push(
        violation(
          "stale-write",
          `${write.resource}: write with fence ${write.fence} of ${describe(section)} was rejected although it was never told of a loss`,
        ),
      );
  }
  return violations;
}

function replay(resource: string, writes: readonly WriteRecord[], capacity: number): Violation[] {
  const out: Violation[] = [];
  const kept: number[] = [];
  for (const w of [...writes].sort((a, b) => a.order - b.order)) {
    const accept = kept.includes(w.fence) || kept.length < capacity || w.fence > Math.min(...kept);
    if (accept && !kept.includes(w.fence)) {
      kept.push(w.fence);
      kept.sort((a, b) => a - b);
      if (kept.length > capacity) kept.shift();
    }
    if (accept !== w.accepted) {
      out.push(
        violation(
          "resource",
          `${resource}: write #${w.order} with fence ${w.fence} was ${w.accepted ? "accepted" : "rejected"}; the fence rule says ${accept ? "accept" : "reject"}`,
        ),
      );
    }
  }
  return out;
}

/** Readers of a read-write lock see no write while they hold it, unless they were cut off. */
export function checkReads(
  history: History,
  options: ResolvedCheckOptions,
  excused: Record<Excuse, number>,
): Violation[] {
  const violations: Violation[] = [];
  const sections = new Map(history.sections.map((s) => [s.id, s]));
  const byReader = groupBy(history.reads, (r) => `${r.section}|${r.resource}`);
  for (const reads of byReader.values()) {
    const first = reads[0]!;
    const changed = reads.find((r) => r.version !== first.version);
    const section: SectionRecord | undefined = sections.get(first.section);
    if (!changed || !section) continue;
    const excuse =
      staleExcuse(history, section, changed.seq, options) ??
      writersExcuse(history, sections, first, changed, section, options);
    if (excuse) excused[excuse]++;
    else
      violations.push(
        violation(
          "read-changed",
          `${first.resource}: a write landed while reader ${describe(section)} held it (version ${first.version} → ${changed.version})`,
        ),
      );
  }
  return violations;
}

/**
 * Why the writes a reader saw land may have landed: each came from a writer that held before the
 * reader entered and was cut off for an accepted reason (a data loss let the reader in while the
 * writer, told later, still held; fences guard writes against writes, not against reads). The
 * k-th accepted write makes version k, so the writes in between are exactly those numbered
 * `from.version + 1` to `to.version`.
 */
function writersExcuse(
  history: History,
  sections: ReadonlyMap<number, SectionRecord>,
  from: ReadRecord,
  to: ReadRecord,
  reader: SectionRecord,
  options: ResolvedCheckOptions,
): Excuse | undefined {
  const accepted = history.writes
    .filter((w) => w.resource === from.resource && w.accepted)
    .sort((a, b) => a.order - b.order);
  const landed = accepted.slice(from.version, to.version);
  if (landed.length === 0) return undefined;
  let excuse: Excuse | undefined;
  for (const write of landed) {
    const writer = sections.get(write.section);
    if (!writer || writer.enterSeq >= reader.enterSeq) return undefined;
    excuse = staleExcuse(history, writer, reader.enterSeq, options);
    if (!excuse) return undefined;
  }
  return excuse;
}
