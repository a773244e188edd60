import type { EventSink } from "../events.ts";

/** What a lost hold needs: to be told it is gone. */
export interface LosableHold {
  loseToRollback(): void;
}

/**
 * A client's memory of the restart quarantine's grant epochs (see `common/quarantine.lua`): the
 * highest epoch a reply showed per sentinel, sent with every protocol call so that a script can
 * tell that the data set went back to an older state (a restart from an RDB snapshot, AOF
 * `everysec`, a restore, a failover) and quarantine. Only a client that lives across requests
 * remembers anything: one made per request (a Worker) sends 0 and detects no rollback.
 */
export class GrantEpochs {
  readonly #seen = new Map<string, number>();
  readonly #holds = new Set<LosableHold>();

  /** The highest epoch seen at `sentinel` (0: none), for the next call's arguments. */
  seen(sentinel: string): number {
    return this.#seen.get(sentinel) ?? 0;
  }

  /** A live hold, lost if a rollback is reported; `forget` when it ends. */
  track(hold: LosableHold): { forget(): void } {
    this.#holds.add(hold);
    return { forget: () => void this.#holds.delete(hold) };
  }

  /**
   * A reply's epochs: the one the script left (-1: it did not read the sentinel) and the smaller
   * one it found (-1: none). The epoch left is remembered (replies may arrive out of order, so
   * only the highest counts, and only the script, which compares at the server, judges a
   * rollback). On a rollback every hold this client knows of is lost: the data set no longer
   * shows which of them survived, and the quarantine the script started keeps new holders out
   * until all of them are past their local deadlines.
   */
  observe(
    sentinel: string,
    left: number,
    foundLower: number,
    operation: string,
    emit: EventSink,
  ): void {
    if (left >= 0 && left > this.seen(sentinel)) this.#seen.set(sentinel, left);
    if (foundLower < 0) return;
    const holds = [...this.#holds];
    this.#holds.clear();
    emit({ type: "rolled-back", operation, foundEpoch: foundLower, holdsLost: holds.length });
    for (const hold of holds) hold.loseToRollback();
  }
}
