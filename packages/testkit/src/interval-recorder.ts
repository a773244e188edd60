import { IntervalOverlapError } from "./errors.ts";

/** One critical section as recorded. Times are `performance.now()` milliseconds. */
export interface Interval {
  readonly owner: string;
  readonly fence?: number;
  /** Grant order: 0 for the first section entered, 1 for the next, … */
  readonly order: number;
  readonly enteredAt: number;
  /** `undefined` while the section is still open. */
  readonly exitedAt?: number;
}

/** Two sections of different owners that were open at the same time; `first` entered first. */
export interface Overlap {
  readonly first: Interval;
  readonly second: Interval;
}

export interface Section {
  /** Ends the section; a second call throws. */
  exit(): void;
}

interface Entry {
  readonly owner: string;
  readonly fence: number | undefined;
  readonly order: number;
  readonly enteredAt: number;
  readonly enterSeq: number;
  exitedAt: number | undefined;
  exitSeq: number | undefined;
}

/**
 * Records critical sections to check mutual exclusion after the fact. Overlap is decided on a
 * sequence number taken at every `enter` and `exit`, not on clock readings, so back-to-back
 * sections (exit, then the next enter) never count however coarse the clock. Sections of one
 * owner may overlap each other (re-entry); give each contender its own owner name.
 */
export class IntervalRecorder {
  private readonly entries: Entry[] = [];
  private seq = 0;

  enter(owner: string, fence?: number): Section {
    const entry: Entry = {
      owner,
      fence,
      order: this.entries.length,
      enteredAt: performance.now(),
      enterSeq: this.seq++,
      exitedAt: undefined,
      exitSeq: undefined,
    };
    this.entries.push(entry);
    return {
      exit: () => {
        if (entry.exitSeq !== undefined)
          throw new Error(`section ${entry.order} of ${owner} exited twice`);
        entry.exitedAt = performance.now();
        entry.exitSeq = this.seq++;
      },
    };
  }

  /** Every section in grant order. */
  intervals(): Interval[] {
    return this.entries.map(toInterval);
  }

  /** Pairs of different owners open at the same time (an open section lasts until now). */
  overlaps(): Overlap[] {
    const found: Overlap[] = [];
    this.entries.forEach((a, i) => {
      for (const b of this.entries.slice(i + 1)) {
        if (a.owner !== b.owner && b.enterSeq < (a.exitSeq ?? Infinity)) {
          found.push({ first: toInterval(a), second: toInterval(b) });
        }
      }
    });
    return found;
  }

  /** Throws `IntervalOverlapError` listing every overlapping pair. */
  assertNoOverlap(): void {
    const overlaps = this.overlaps();
    if (overlaps.length > 0) throw new IntervalOverlapError(overlaps);
  }

  /** The largest number of sections (of any owners) open at once. */
  maxConcurrent(): number {
    const events = this.entries.flatMap((e) => [
      { seq: e.enterSeq, delta: 1 },
      ...(e.exitSeq === undefined ? [] : [{ seq: e.exitSeq, delta: -1 }]),
    ]);
    events.sort((x, y) => x.seq - y.seq);
    let open = 0;
    let max = 0;
    for (const event of events) max = Math.max(max, (open += event.delta));
    return max;
  }

  /** Fences strictly increase in the order sections were entered; sections without one are skipped. */
  fencesIncreasingInGrantOrder(): boolean {
    const fences = this.entries.flatMap((e) => (e.fence === undefined ? [] : [e.fence]));
    return fences.every((fence, i) => i === 0 || fence > fences[i - 1]!);
  }
}

function toInterval(entry: Entry): Interval {
  return {
    owner: entry.owner,
    order: entry.order,
    enteredAt: entry.enteredAt,
    ...(entry.fence === undefined ? {} : { fence: entry.fence }),
    ...(entry.exitedAt === undefined ? {} : { exitedAt: entry.exitedAt }),
  };
}
