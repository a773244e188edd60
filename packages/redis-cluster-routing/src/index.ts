// How a Redis Cluster adapter routes raw commands: by the first key; SCRIPT/FLUSH/DBSIZE/KEYS to
// every master; SCAN across masters behind one cursor. One table for the core's node-redis cluster
// backend and the rest-server, which both bundle this private package.
export { clusterRoute, combineReplies, type ClusterRoute, type MastersCombine } from "./route.ts";
export { scanStep, nextScanCursor, byAddress, type ScanStep } from "./scan.ts";
