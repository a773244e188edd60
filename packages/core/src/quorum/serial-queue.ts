/**
 * Runs tasks one at a time, in the order given: one hold's renewals (its keeper's and
 * `extend()`'s) never overlap, so at most one renewal per database is ever in flight. The shape a
 * shared lease-renewal module (`lease/`) can satisfy later: `run(task)` is all the quorum needs.
 */
export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const next = this.#tail.then(task);
    this.#tail = next.catch(() => undefined);
    return next;
  }
}
