import type {
  FaultRecord,
  History,
  LatchRoundRecord,
  SectionEnd,
  SectionRecord,
  UntypedErrorRecord,
} from "./types.ts";
import { emptyHistory } from "./types.ts";
import { HitLedger } from "./hit-ledger.ts";

export type SectionInit = Omit<SectionRecord, "id" | "enterSeq" | "frozen"> & {
  readonly frozen?: boolean;
};

/**
 * Records a campaign's history in one process: every observation takes the next number of one
 * global sequence, so "A exited before B entered" is decided by order, not by clock readings.
 */
export class Recorder {
  readonly history: History;
  readonly hits: HitLedger;
  #seq = 0;

  constructor(seed: number) {
    this.history = emptyHistory(seed);
    this.hits = new HitLedger(this.history.hits, () => this.next());
  }

  next(): number {
    return this.#seq++;
  }

  enter(init: SectionInit): SectionRecord {
    const section: SectionRecord = {
      ...init,
      frozen: init.frozen ?? false,
      id: this.history.sections.length,
      enterSeq: this.next(),
    };
    this.history.sections.push(section);
    return section;
  }

  /** The holder stopped using the resource (first call wins). */
  exit(section: SectionRecord): void {
    section.exitSeq ??= this.next();
  }

  /**
   * The library told the holder it lost the hold (first call wins); a non-frozen holder stops at
   * once. Told right after `enter` (nothing recorded in between) means the hold came back lost.
   */
  tell(section: SectionRecord, how: string): void {
    if (section.toldSeq !== undefined) return;
    section.toldSeq = this.next();
    section.toldHow = how;
    if (!section.frozen) section.exitSeq ??= section.toldSeq;
  }

  /** A frozen holder woke up, past its lease. */
  thaw(section: SectionRecord): void {
    section.thawSeq = this.next();
  }

  end(section: SectionRecord, end: SectionEnd): void {
    this.exit(section);
    section.end ??= end;
  }

  write(
    section: SectionRecord,
    resource: string,
    fence: number,
    answer: { accepted: boolean; order: number },
  ): void {
    const afterTold = section.toldSeq !== undefined;
    this.history.writes.push({
      section: section.id,
      resource,
      fence,
      seq: this.next(),
      ...answer,
      afterTold,
    });
  }

  read(section: SectionRecord, resource: string, version: number): void {
    this.history.reads.push({ section: section.id, resource, seq: this.next(), version });
  }

  holdCount(section: SectionRecord, expected: number, observed: number): void {
    this.history.holdCounts.push({ section: section.id, expected, observed, seq: this.next() });
  }

  leaseProbe(
    section: SectionRecord,
    probe: { believedMs: number; believedAfterMs: number; serverMs: number; elapsedMs: number },
  ): void {
    this.history.leaseProbes.push({ section: section.id, ...probe, seq: this.next() });
  }

  refusal(section: SectionRecord, resource: string): void {
    this.history.refusals.push({ section: section.id, resource, seq: this.next() });
  }

  fault(kind: string, detail: string): FaultRecord {
    const fault: FaultRecord = { kind, detail, startSeq: this.next(), injected: 0 };
    this.history.faults.push(fault);
    return fault;
  }

  dataLoss(startSeq: number, detail: string): void {
    this.history.dataLosses.push({ startSeq, endSeq: this.next(), detail });
  }

  latchRound(latch: string, count: number): LatchRoundRecord {
    const round: LatchRoundRecord = {
      id: this.history.latchRounds.length,
      latch,
      count,
      setSeq: this.next(),
      calls: [],
    };
    this.history.latchRounds.push(round);
    return round;
  }

  untyped(worker: string, operation: string, error: unknown): void {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const record: UntypedErrorRecord = { worker, operation, seq: this.next(), message };
    this.history.untyped.push(record);
  }
}
