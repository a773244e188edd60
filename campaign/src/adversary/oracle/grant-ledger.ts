import type { Execution } from "../history.ts";

/** Grants and releases that applied at the server, per intent, with the runs that applied them. */
export class GrantLedger {
  readonly granted = new Map<number, number>();
  readonly released = new Map<number, number>();
  /** The run of each intent's first applied grant and its last applied release. */
  readonly firstGrant = new Map<number, Execution>();
  readonly lastRelease = new Map<number, Execution>();
  /** Every run that applied a grant or a release, in execution order. */
  readonly applying: Execution[] = [];
  /** Every run that applied a grant (for an intent), in the order added. */
  readonly granting: Execution[] = [];

  add(e: Execution, granted: number, released: number): void {
    if (e.intent === null) return;
    if (granted > 0 || released > 0) this.applying.push(e);
    if (granted > 0) {
      this.granting.push(e);
      this.granted.set(e.intent, (this.granted.get(e.intent) ?? 0) + granted);
      if (!this.firstGrant.has(e.intent)) this.firstGrant.set(e.intent, e);
    }
    if (released > 0) {
      this.released.set(e.intent, (this.released.get(e.intent) ?? 0) + released);
      this.lastRelease.set(e.intent, e);
    }
  }

  grantsOf(intent: number): number {
    return this.granted.get(intent) ?? 0;
  }

  releasesOf(intent: number): number {
    return this.released.get(intent) ?? 0;
  }
}
