import type { Fault } from "./fault.ts";
import { frozenHolderFault } from "./freeze.ts";
import { actionFault, flushScriptsFault, latencyFault } from "./network.ts";
import { latePushFault } from "./push.ts";
import { restartFault } from "./restart.ts";
import { clockSkewFault } from "./skew.ts";

/** Every fault of the campaign, with its weight. Other suites extend this list. */
export const DEFAULT_FAULTS: readonly Fault[] = [
  latencyFault,
  actionFault("fail-before", 2),
  actionFault("fail-after", 2),
  actionFault("drop-before", 1),
  actionFault("drop-after", 2),
  actionFault("hang", 2),
  flushScriptsFault,
  restartFault("restart", 1),
  restartFault("crash", 1),
  restartFault("restart-flush", 1),
  frozenHolderFault,
  clockSkewFault,
  latePushFault(),
];
