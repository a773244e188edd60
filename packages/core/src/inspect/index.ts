export { inspect, type Inspector } from "./inspector.ts";
export {
  DEFAULT_INSPECT_OPTIONS,
  MAX_LIST_COUNT,
  MAX_LIST_ALL,
  MAX_DESCRIBE_LIMIT,
} from "./options.ts";
export type {
  InspectKind,
  ListEntry,
  ListOptions,
  ListPage,
  ListAllOptions,
  DescribeOptions,
  Description,
  Holder,
  Waiter,
  ForceUnlockOptions,
  Snapshot,
  SnapshotOptions,
} from "./types.ts";
