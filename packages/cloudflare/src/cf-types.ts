/**
 * The few Cloudflare runtime shapes this package touches, written structurally so that the
 * package type-checks (and its client runs) without `@cloudflare/workers-types` in scope —
 * a Vercel or Node app uses the HTTPS client and never sees a Durable Object.
 */
export interface DurableObjectNamespaceLike {
  idFromName(name: string): unknown;
  get(id: never): { fetch(input: string, init?: RequestInit): Promise<Response> };
}

export interface DurableObjectStorageLike {
  get<T = unknown>(key: string): Promise<T | undefined>;
  put(key: string, value: unknown): Promise<void>;
  setAlarm(scheduledTime: number): Promise<void>;
  deleteAlarm(): Promise<void>;
  getAlarm(): Promise<number | null>;
}

export interface DurableObjectStateLike {
  readonly storage: DurableObjectStorageLike;
}
