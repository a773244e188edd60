/** Where a worker connects, and how far away the server is. */
export interface LibraryEnv {
  readonly rest: { readonly url: string; readonly token: string };
  /** `redis://` URL of the latency-injecting TCP proxy. */
  readonly proxyUrl: string;
  /** The one lock name all workers of a run contend on. */
  readonly name: string;
  /** One-way network delay, ms, drawn per message: what the bench adds to pushed messages. */
  readonly oneWayMs: () => number;
}

export interface AcquireRequest {
  /** Give up after this long. */
  readonly waitMs: number;
  /** A fixed lease; omitted: the library's default lease (and keep-alive, where it has one). */
  readonly leaseMs?: number;
  /** Another lock name than the run's (warm-ups use their own, leaving the run's untouched). */
  readonly name?: string;
}

/** One hold, as the workload sees it. */
export interface BenchHold {
  /** Aborts when the library knows the lease is lost (absent: it cannot tell). */
  readonly signal?: AbortSignal;
  release(): Promise<void>;
  /** Renews (sets or adds) the lease; absent when the library has no renewal. */
  extend?(ms: number): Promise<void>;
}

/** One worker: one invocation with its own client. */
export interface LockWorker {
  /** The hold, or null when not acquired within the wait. */
  acquire(request: AcquireRequest): Promise<BenchHold | null>;
  close(): Promise<void>;
}

export interface LockLibrary {
  readonly name: string;
  /** What its requests are counted as: HTTP requests (rest) or wire commands (tcp). */
  readonly transport: "rest" | "tcp";
  /** The settings used, for the report. */
  readonly settings: string;
  worker(env: LibraryEnv): Promise<LockWorker>;
}
