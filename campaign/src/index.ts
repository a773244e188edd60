export {
  runCampaign,
  DEFAULT_CAMPAIGN_CLIENT,
  type CampaignOptions,
  type CampaignResult,
} from "./campaign.ts";
export { checkHistory, type CheckResult } from "./checker/check.ts";
export { DEFAULT_CHECK_OPTIONS, type CheckOptions } from "./checker/options.ts";
export { formatReport } from "./checker/report.ts";
export type { Figures } from "./checker/figures.ts";
export type { Rule, Violation } from "./checker/violation.ts";
export { DEFAULT_FAULTS } from "./faults/catalog.ts";
export type { Fault, FaultContext } from "./faults/fault.ts";
export { Recorder } from "./history/recorder.ts";
export type * from "./history/types.ts";
export { Random, seedFrom } from "./random.ts";
export { ALL_ACTIVITIES } from "./workload/activities.ts";
export { DEFAULT_NAMES, type Names, type World, type Worker } from "./workload/world.ts";
