/** What the checker tolerates. Defaults state today's guarantees. */
export interface CheckOptions {
  /**
   * Overlapping leased holds are allowed across a detected data loss (a restart without
   * persistence), as long as the stale holder is told and its later writes are rejected by the
   * fence. False when the clients run the restart quarantine (`quarantineMs`), which makes grants
   * wait out every lease from before the loss. Unleased semaphore permits are always excused
   * across a data loss: nothing bounds them.
   * @default true
   */
  readonly relaxAcrossDataLoss?: boolean;
  /**
   * Overlaps where the earlier holder's lease ran out (its signal aborted at its local deadline)
   * without any data loss. The local deadline comes before the server's expiry, so the only way
   * to see one is a timer firing late on a loaded machine; its stale writes must still be rejected.
   * @default false
   */
  readonly excuseLateSignal?: boolean;
}

export const DEFAULT_CHECK_OPTIONS = Object.freeze({
  relaxAcrossDataLoss: true,
  excuseLateSignal: false,
});

export type ResolvedCheckOptions = Required<CheckOptions>;

export function resolveCheckOptions(options: CheckOptions = {}): ResolvedCheckOptions {
  return { ...DEFAULT_CHECK_OPTIONS, ...options };
}
