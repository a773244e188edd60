// What the Lock conformance suite and these tests need from @edgelock/testkit inside workerd,
// without its process-starting modules (child_process, net) that only run on Node.
export {
  IntervalRecorder,
  type Interval,
  type Overlap,
  type Section,
} from "../../../testkit/src/interval-recorder.ts";
export { keyPrefix } from "../../../testkit/src/key-prefix.ts";
export { harness } from "../../../testkit/src/harness.ts";
export type { HarnessEnv } from "../../../testkit/src/harness-env.ts";
