// `@edgelock/core/cluster`: how a Redis Cluster adapter routes edgelock's commands (by the first
// key; SCRIPT/FLUSH/DBSIZE/KEYS to every master; SCAN across masters behind one cursor). Shared by
// the core's node-redis cluster backend and @edgelock/rest-server, so both route alike.
export {
  clusterRoute,
  combineReplies,
  type ClusterRoute,
  type MastersCombine,
} from "./backend/cluster-route.ts";
export { scanStep, nextScanCursor, byAddress, type ScanStep } from "./backend/cluster-scan.ts";
