/**
 * In-process check of what each primitive promises while the soak runs (every worker lives in
 * this process, so a shared tally sees every critical section): the weights inside a resource
 * never exceed its limit. A lock: weight 1, limit 1. A semaphore of 2: weight 1, limit 2. A
 * read-write lock: a writer weighs WRITER (alone at the limit), a reader 1 (limit WRITER − 1).
 */
export const WRITER = 1_000;

export class Occupancy {
  readonly #inside = new Map<string, number>();
  violations = 0;

  enter(resource: string, weight: number, limit: number): void {
    const total = (this.#inside.get(resource) ?? 0) + weight;
    this.#inside.set(resource, total);
    if (total > limit) this.violations++;
  }

  leave(resource: string, weight: number): void {
    this.#inside.set(resource, (this.#inside.get(resource) ?? weight) - weight);
  }
}
