/**
 * Reference model of a quorum lock's outcomes over N databases, some of which are down (a
 * request to them fails before it runs). No time: leases are long and never run out. Holds are
 * numbered; each database remembers which hold it grants, if any.
 */
export type QuorumAcquire = "granted" | "busy" | "unreachable";
export type QuorumRelease = "released" | "not-held" | "unreachable";

export class QuorumModel {
  readonly majority: number;
  readonly down: boolean[];
  readonly holder: (number | null)[];
  readonly #released = new Set<number>();

  constructor(readonly n: number) {
    this.majority = Math.floor(n / 2) + 1;
    this.down = Array<boolean>(n).fill(false);
    this.holder = Array<number | null>(n).fill(null);
  }

  #up(): number[] {
    return this.holder.flatMap((_, i) => (this.down[i] ? [] : [i]));
  }

  /** Takes every free running database; keeps them only with a majority, else gives them back. */
  tryAcquire(hold: number): QuorumAcquire {
    const up = this.#up();
    const free = up.filter((i) => this.holder[i] === null);
    if (free.length >= this.majority) {
      for (const i of free) this.holder[i] = hold;
      return "granted";
    }
    return free.length < up.length && up.length >= this.majority ? "busy" : "unreachable";
  }

  /** Releases where running; a majority of releases is success, a majority impossible is "not-held". */
  release(hold: number): QuorumRelease {
    if (this.#released.has(hold)) return "not-held";
    this.#released.add(hold);
    let released = 0;
    let notHeld = 0;
    for (const i of this.#up()) {
      if (this.holder[i] === hold) {
        this.holder[i] = null;
        released++;
      } else notHeld++;
    }
    if (released >= this.majority) return "released";
    return notHeld > this.n - this.majority ? "not-held" : "unreachable";
  }

  /** The database restarted with no data. */
  wipe(i: number): void {
    this.holder[i] = null;
  }
}
