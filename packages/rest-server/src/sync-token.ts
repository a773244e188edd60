/**
 * Upstash answers every request with an `upstash-sync-token` header, and @upstash/redis (with
 * `readYourWrites`, its default) stores it and sends it back so a replica can wait until it has
 * caught up. A single Redis has nothing to wait for, so the token here is opaque and only has to
 * change: a per-process prefix and a counter.
 */
export class SyncTokens {
  readonly #prefix = Math.floor(Math.random() * 2 ** 32).toString(36);
  #sequence = 0;

  next(): string {
    this.#sequence += 1;
    return `${this.#prefix}-${this.#sequence}`;
  }
}

export const SYNC_TOKEN_HEADER = "upstash-sync-token";
