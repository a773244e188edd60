/** Counters of the data-plane traffic (control endpoints are never counted). */
export interface ServerStats {
  /** HTTP requests to `/`, `/pipeline`, `/multi-exec`, path-style commands and `/subscribe`. */
  readonly httpRequests: number;
  /** Commands sent to Redis on behalf of those requests (a pipeline of 3 counts 3). */
  readonly redisCommands: number;
  /** `redisCommands` by lowercase command name. */
  readonly commands: Readonly<Record<string, number>>;
}

/** Mutable counters behind {@link ServerStats}; `snapshot()` hands out copies. */
export class StatsCounter {
  #httpRequests = 0;
  #redisCommands = 0;
  #commands = new Map<string, number>();

  countRequest(): void {
    this.#httpRequests += 1;
  }

  countCommand(lowercaseName: string): void {
    this.#redisCommands += 1;
    this.#commands.set(lowercaseName, (this.#commands.get(lowercaseName) ?? 0) + 1);
  }

  snapshot(): ServerStats {
    return {
      httpRequests: this.#httpRequests,
      redisCommands: this.#redisCommands,
      commands: Object.fromEntries(this.#commands),
    };
  }

  reset(): void {
    this.#httpRequests = 0;
    this.#redisCommands = 0;
    this.#commands.clear();
  }
}
