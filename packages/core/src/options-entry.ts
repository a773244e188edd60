// `@edgelock/core/options`: the core's argument validators and the documented defaults of
// `createClient`, alone, for the adapters (`@edgelock/cloudflare`, `@edgelock/vercel`,
// `@edgelock/hono`) and any code that checks its options the core's way: the same rules, the
// same messages naming the argument, without a primitive in the bundle.
export {
  DEFAULT_CLIENT_OPTIONS,
  RECORD_MARGIN_SLACK_MS,
  type ClientOptions,
  type PushOptions,
} from "./client-options.ts";
export {
  MAX_NAME_LENGTH,
  validateFunction,
  validateInteger,
  validateMs,
  validateName,
  validateObject,
  validateOptionalMs,
  validateSignal,
} from "./validate.ts";
export { InvalidArgumentError } from "./errors.ts";
