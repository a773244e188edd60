export { createInspectorApp } from "./app.ts";
export {
  DEFAULT_INSPECTOR_OPTIONS,
  MIN_TOKEN_LENGTH,
  type InspectorAppOptions,
} from "./options.ts";
export { SESSION_COOKIE } from "./session.ts";
