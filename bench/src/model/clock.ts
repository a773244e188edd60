/** A discrete-event clock: callbacks run in time order, time jumps between them. */
export class EventClock {
  now = 0;
  readonly #heap: { at: number; seq: number; run: () => void }[] = [];
  #seq = 0;

  at(time: number, run: () => void): void {
    this.#heap.push({ at: Math.max(time, this.now), seq: this.#seq++, run });
    this.#up(this.#heap.length - 1);
  }

  after(ms: number, run: () => void): void {
    this.at(this.now + Math.max(0, ms), run);
  }

  run(until = Infinity): void {
    while (this.#heap.length > 0 && this.#heap[0]!.at <= until) {
      const top = this.#heap[0]!;
      const last = this.#heap.pop()!;
      if (this.#heap.length > 0) {
        this.#heap[0] = last;
        this.#down(0);
      }
      this.now = top.at;
      top.run();
    }
  }

  #less(a: number, b: number): boolean {
    const x = this.#heap[a]!;
    const y = this.#heap[b]!;
    return x.at < y.at || (x.at === y.at && x.seq < y.seq);
  }

  #swap(a: number, b: number): void {
    const t = this.#heap[a]!;
    this.#heap[a] = this.#heap[b]!;
    this.#heap[b] = t;
  }

  #up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.#less(i, parent)) return;
      this.#swap(i, parent);
      i = parent;
    }
  }

  #down(i: number): void {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.#heap.length && this.#less(l, m)) m = l;
      if (r < this.#heap.length && this.#less(r, m)) m = r;
      if (m === i) return;
      this.#swap(i, m);
      i = m;
    }
  }
}
