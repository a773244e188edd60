export { lockMiddleware } from "./lock-middleware.ts";
export {
  DEFAULT_LOCK_MIDDLEWARE,
  type LockMiddlewareOptions,
  type LockVariables,
  type LockedInfo,
} from "./options.ts";
export { releaseAfterBody } from "./release-after-body.ts";
