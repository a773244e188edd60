/**
 * The documented prelude of the doc-snippet check (`pnpm check:docs`), written as `prelude.d.ts`
 * beside the snippets.
 *
 * Doc snippets are checked as they are written, each as its own module against the packed
 * packages. They may use, without declaring them, only the names below: the reader's own
 * application code (what the lock protects) and the conventional values a page sets up once
 * (`edgelock`, the client; `env` and `ctx` inside a Worker's `fetch`). Everything from edgelock,
 * `@upstash/redis`, hono or `@vercel/functions` must be imported by the snippet itself.
 * Add a name here only when a reader would obviously have it; say what it stands for.
 */
export const PRELUDE = `import type { EdgelockClient } from "@edgelock/core";

declare global {
  /** The client a page creates in its first block. */
  const edgelock: EdgelockClient;

  /** A Worker's bindings, as \`wrangler types\` generates them for the docs' wrangler.jsonc. */
  interface Env {
    UPSTASH_REDIS_REST_URL: string;
    UPSTASH_REDIS_REST_TOKEN: string;
    EDGELOCK_KEEPER_SECRET: string;
    LEASE_KEEPER: DurableObjectNamespace;
    DB: D1Database;
  }
  /** A Worker's \`env\` and \`ctx\`, for snippets that show the inside of a \`fetch\` handler. */
  const env: Env;
  const ctx: ExecutionContext;

  // The reader's application: the work a lock protects. Loosely typed on purpose.
  interface Work {
    readonly fence?: number;
    readonly signal?: AbortSignal;
    readonly [key: string]: unknown;
  }
  function chargeCard(work: Work): Promise<{ readonly charged: boolean }>;
  function reindex(work: Work): Promise<void>;
  function render(...args: unknown[]): Promise<void>;
  function print(...args: unknown[]): Promise<void>;
  function transfer(work: Work): Promise<void>;
  function payout(work: Work): Promise<void>;
  function callPartnerApi(): Promise<unknown>;
  function loadCatalog(): Promise<unknown>;
  function saveCatalog(catalog: unknown, fence: number): Promise<void>;
  const db: {
    update(table: string, row: Record<string, unknown>, work: Work): Promise<void>;
  };
  /** Placeholders for values a reader supplies. */
  const job: unknown;
  const nextCatalog: unknown;
}
`;
