import { inject } from "vitest";
import { TestkitError } from "./errors.ts";
import { HARNESS_KEY, type HarnessEnv } from "./harness-env.ts";

/** The Redis and REST endpoints the global setup started (or was pointed at) for this project. */
export function harness(): HarnessEnv {
  const env = inject(HARNESS_KEY) as HarnessEnv | undefined;
  if (env === undefined) {
    throw new TestkitError(
      "harness-missing",
      `nothing provided under "${HARNESS_KEY}": add globalSetup: ["../testkit/src/global-setup.ts"] to this package's vitest.config.ts`,
    );
  }
  return env;
}
