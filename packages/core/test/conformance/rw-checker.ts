/**
 * Records read and write sections and reports every moment exclusion was broken: a writer entering
 * while anyone else reads or writes, or a reader entering while another owner writes. One owner
 * may hold both (downgrade) and re-enter. Order is the order of events in this process, which is
 * the real order: sections open after `acquire` resolves and close before `release` is sent.
 */
export class ReadWriteChecker {
  readonly #readers = new Map<string, number>();
  readonly #writers = new Map<string, number>();
  readonly violations: string[] = [];
  readonly writerFences: number[] = [];
  maxConcurrentReaders = 0;

  enter(mode: "read" | "write", owner: string, fence?: number): { exit(): void } {
    const others = (m: Map<string, number>) => [...m.keys()].filter((o) => o !== owner);
    if (mode === "write") {
      const clash = [...others(this.#writers), ...others(this.#readers)];
      if (clash.length > 0)
        this.violations.push(`writer ${owner} entered while ${clash.join(", ")} held`);
      if (fence !== undefined) this.writerFences.push(fence);
    } else if (others(this.#writers).length > 0) {
      this.violations.push(
        `reader ${owner} entered while writer ${others(this.#writers).join(", ")} held`,
      );
    }
    const map = mode === "write" ? this.#writers : this.#readers;
    map.set(owner, (map.get(owner) ?? 0) + 1);
    this.maxConcurrentReaders = Math.max(this.maxConcurrentReaders, this.#readers.size);
    let open = true;
    return {
      exit: () => {
        if (!open) throw new Error(`${mode} section of ${owner} exited twice`);
        open = false;
        const left = (map.get(owner) ?? 1) - 1;
        if (left === 0) map.delete(owner);
        else map.set(owner, left);
      },
    };
  }

  /** Writer fences strictly increase in the order writers entered. */
  writerFencesIncreasing(): boolean {
    return this.writerFences.every((f, i) => i === 0 || f > this.writerFences[i - 1]!);
  }
}
