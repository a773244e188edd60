/**
 * Reference model of the CountDownLatch, with operation ids: a countDown replayed under an id
 * already seen answers what it answered the first time and counts nothing.
 */
export class LatchModel {
  count = 0;
  readonly answers = new Map<string, number>();

  trySetCount(n: number): boolean {
    if (this.count > 0) return false;
    this.count = n;
    return true;
  }

  /** Returns the count left after the operation (0 when open). */
  countDown(opId: string): number {
    const seen = this.answers.get(opId);
    if (seen !== undefined) return seen;
    if (this.count > 0) this.count--;
    this.answers.set(opId, this.count);
    return this.count;
  }
}
