// The part of `cloudflare:test` these tests use, typed structurally: the full
// @cloudflare/workers-types would replace the DOM lib that @edgelock/core's sources compile against.
declare module "cloudflare:test" {
  interface DurableObjectStubLike {
    fetch(input: string, init?: RequestInit): Promise<Response>;
  }
  interface NamespaceLike {
    idFromName(name: string): unknown;
    get(id: unknown): DurableObjectStubLike;
  }
  interface StateLike {
    storage: {
      getAlarm(): Promise<number | null>;
      setAlarm(at: number): Promise<void>;
      deleteAlarm(): Promise<void>;
      get<T>(key: string): Promise<T | undefined>;
    };
  }
  export const env: {
    UPSTASH_REDIS_REST_URL: string;
    UPSTASH_REDIS_REST_TOKEN: string;
    EDGELOCK_KEEPER_SECRET: string;
    REST_FAULTS: string;
    LEASE_KEEPER: NamespaceLike;
  };
  export const SELF: { fetch(input: string, init?: RequestInit): Promise<Response> };
  export function runInDurableObject<R>(
    stub: DurableObjectStubLike,
    callback: (instance: unknown, state: StateLike) => R | Promise<R>,
  ): Promise<R>;
  export function runDurableObjectAlarm(stub: DurableObjectStubLike): Promise<boolean>;
  export function createExecutionContext(): ExecutionContextLike;
  export function waitOnExecutionContext(ctx: ExecutionContextLike): Promise<void>;
  interface ExecutionContextLike {
    waitUntil(promise: Promise<unknown>): void;
    passThroughOnException(): void;
  }
}

type ExecutionContext = import("cloudflare:test").ExecutionContextLike;

/** Vite's `import.meta.glob`, as the vitest pool transforms it (used by the core source check). */
interface ImportMeta {
  glob<T>(
    pattern: string,
    options: { query: string; import: string; eager: true },
  ): Record<string, T>;
}
