import type { Backend } from "./backend/backend.ts";
import { rememberPushRefusal } from "./backend/push-refusal-memory.ts";
import { restStreams, type RestStreams } from "./backend/rest-streams.ts";
import { lockWake } from "./lock/push-grant.ts";

/**
 * Push, as one piece a client factory hands to its clients: the REST backend's streams, the
 * memory of a backend that refuses them, and a Lock waiter's listening. `createClient` and
 * `@edgelock/core/lock` give it to every client (push is the default); the polling entry,
 * `@edgelock/core/lock-polling`, gives none, so a bundler leaves all of it out of that Worker.
 */
export interface PushKit {
  readonly restStreams: RestStreams;
  readonly rememberRefusal: (backend: Backend, refusedBackoffMs: number) => Backend;
  readonly lockWake: typeof lockWake;
}

export const PUSH: PushKit = { restStreams, rememberRefusal: rememberPushRefusal, lockWake };
