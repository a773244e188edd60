import { describe, it } from "vitest";
import { resolveBackend, type Backend, type RedisInput } from "../../src/index.ts";
import type { QuorumDatabases } from "./quorum.conformance.ts";

// The one list of the suites every backend runs: primitive × backend, each cell either run or a
// named skip with its reason (reported as a skipped test, so the reason is in every report). One
// test file per backend and row group loops over it: conformance.rest.test.ts,
// regressions.tcp.test.ts, cluster/cluster.rest.test.ts, the cloudflare package's
// conformance.workerd.test.ts, conformance.upstash-live.test.ts (every group, in one file), …
// A new suite is one row here; a new backend is one column here
// and one file per group there.
//
// Each row loads its suite only when a file runs it: the workerd files import this table, and
// some suites import Node-only modules they would then never load.

/** Where a suite can run: the transports and deployments the core supports. */
export type BackendName =
  | "rest"
  | "tcp"
  | "cluster-rest"
  | "cluster-tcp"
  | "workerd"
  /** TCP through a backend that records every id sent (event-masking.test.ts audits the events). */
  | "tcp-audited"
  /**
   * The real @upstash/redis client against a real Upstash database (EDGELOCK_LIVE_UPSTASH_URL and
   * _TOKEN; conformance.upstash-live.test.ts), each run under a key scope of its own.
   */
  | "upstash-live";

/** Groups of rows run by separate files, so vitest can run them in parallel. */
export type SuiteGroup = "conformance" | "regressions" | "quorum";

/** A backend as the suites see it: a name for the `describe` titles and a way to connect. */
export interface SuiteTarget {
  readonly name: string;
  /** A Redis connection for this backend (what users pass as `redis`). */
  makeRedis(): RedisInput | Promise<RedisInput>;
  /** The raw backend, for the Backend suite; by default `resolveBackend(makeRedis())`. */
  makeBackend?(): Backend | Promise<Backend>;
  /** Independent databases, for the QuorumLock (the `quorum` group's files set them up). */
  readonly quorum?: QuorumDatabases;
}

/** A cell: the suite runs on that backend, or is skipped for the reason given. */
export type Cell = "run" | { readonly skip: string };

export interface Suite {
  /** The suite's subject, as the skip's title shows it. */
  readonly title: string;
  readonly group: SuiteGroup;
  /** Registers the suite's `describe` for one backend (loaded on first use). */
  load(): Promise<(target: SuiteTarget) => void>;
  readonly on: Readonly<Record<BackendName, Cell>>;
}

const CLUSTER_REGRESSIONS = {
  skip: "never run on Redis Cluster: issue 13's findings were reproduced on one redis-server, which the REST, TCP and workerd runs cover",
} as const;
const NOT_IN_WORKERD = {
  skip: "never ported to workerd: the protocol is the same as over REST on Node, which runs it",
} as const;
const AUDIT_ONLY_PRIMITIVES = {
  skip: "the event audit runs the primitives' suites: this suite emits no lock events",
} as const;

const QUORUM_NOT_ON_CLUSTER = {
  skip:
    "a quorum needs independent databases that fail independently; the masters of one cluster are one database, " +
    "so a quorum over them proves nothing. The quorum runs over separate redis-servers.",
} as const;

// What a live database cannot give a test: a restart, a stop, fault injection at the server, a
// FLUSH, CONFIG SET. The suites of the conformance group need none of these.
const LIVE_QUORUM = {
  skip:
    "a quorum needs independent databases this test can stop and restart empty; " +
    "one live Upstash database is one database, and its server cannot be stopped from here",
} as const;
const LIVE_REGRESSIONS = {
  skip:
    "the regressions replay late and duplicate copies on a schedule timed against request " +
    "timeouts of 100 to 500 ms; a WAN round trip takes a fair share of that, so the schedule " +
    "is no longer the one they test. They run on REST (the real @upstash/redis client " +
    "to the local rest-server), TCP and workerd",
} as const;
const CLUSTER_ONLY_TAGS = {
  skip: "a user's {tag} matters only where keys are spread over slots (a cluster)",
} as const;

/** Every primitive's conformance suite on every backend. */
const PRIMITIVE = {
  rest: "run",
  tcp: "run",
  "cluster-rest": "run",
  "cluster-tcp": "run",
  workerd: "run",
  "tcp-audited": "run",
  "upstash-live": "run",
} as const;

/** A regression suite run on the single-server backends. */
const REGRESSION = {
  rest: "run",
  tcp: "run",
  "cluster-rest": CLUSTER_REGRESSIONS,
  "cluster-tcp": CLUSTER_REGRESSIONS,
  workerd: "run",
  "tcp-audited": { skip: "regressions wrap their own backend (late copies); the audit is TCP's" },
  "upstash-live": LIVE_REGRESSIONS,
} as const;

export const SUITES: readonly Suite[] = [
  {
    title: "Backend",
    group: "conformance",
    load: async () => {
      const { runBackendConformance } = await import("./backend.conformance.ts");
      return (target) =>
        runBackendConformance({
          name: target.name,
          makeBackend: target.makeBackend ?? (async () => resolveBackend(await target.makeRedis())),
        });
    },
    on: {
      rest: "run",
      tcp: "run",
      "cluster-rest": "run",
      "cluster-tcp": "run",
      workerd: {
        skip: "the Backend contract is checked on Node's clients; the Worker's @upstash/redis/cloudflare is exercised by every primitive suite in workerd",
      },
      "tcp-audited": AUDIT_ONLY_PRIMITIVES,
      "upstash-live": "run",
    },
  },
  {
    title: "replication assumptions",
    group: "conformance",
    load: async () => (await import("./replication.conformance.ts")).runReplicationAssumptions,
    on: {
      rest: "run",
      tcp: "run",
      "cluster-rest": {
        skip: "the assumptions are of one database; each cluster master is one, which REST and TCP cover",
      },
      "cluster-tcp": {
        skip: "the assumptions are of one database; each cluster master is one, which REST and TCP cover",
      },
      workerd: {
        skip: "the assumptions are the database's, not the runtime's: REST on Node and the live run check them",
      },
      "tcp-audited": AUDIT_ONLY_PRIMITIVES,
      "upstash-live": "run",
    },
  },
  {
    title: "Lock",
    group: "conformance",
    load: async () => (await import("./lock.conformance.ts")).runLockConformance,
    on: PRIMITIVE,
  },
  {
    title: "FairLock",
    group: "conformance",
    load: async () => (await import("./fair-lock.conformance.ts")).runFairLockConformance,
    on: PRIMITIVE,
  },
  {
    title: "ReadWriteLock",
    group: "conformance",
    load: async () =>
      (await import("./read-write-lock.conformance.ts")).runReadWriteLockConformance,
    on: PRIMITIVE,
  },
  {
    title: "MultiLock",
    group: "conformance",
    load: async () => (await import("./multi-lock.conformance.ts")).runMultiLockConformance,
    on: PRIMITIVE,
  },
  {
    title: "Semaphore",
    group: "conformance",
    load: async () => (await import("./semaphore.conformance.ts")).runSemaphoreConformance,
    on: PRIMITIVE,
  },
  {
    title: "PermitExpirableSemaphore",
    group: "conformance",
    load: async () =>
      (await import("./permit-semaphore.conformance.ts")).runPermitSemaphoreConformance,
    on: PRIMITIVE,
  },
  {
    title: "CountDownLatch",
    group: "conformance",
    load: async () => (await import("./latch.conformance.ts")).runLatchConformance,
    on: PRIMITIVE,
  },
  {
    title: "inspection API",
    group: "conformance",
    load: async () => (await import("./inspect.conformance.ts")).runInspectConformance,
    on: { ...PRIMITIVE, "tcp-audited": AUDIT_ONLY_PRIMITIVES },
  },
  {
    title: "serialized holds (toJSON/resume)",
    group: "conformance",
    load: async () =>
      (await import("./serialized-hold.conformance.ts")).runSerializedHoldConformance,
    on: {
      rest: "run",
      tcp: "run",
      "cluster-rest": { skip: "never run on Redis Cluster; REST and TCP cover the hand-over" },
      "cluster-tcp": { skip: "never run on Redis Cluster; REST and TCP cover the hand-over" },
      workerd: {
        skip: "never run in workerd; the Worker-side hand-over is covered by @edgelock/cloudflare's handoff tests",
      },
      "tcp-audited": AUDIT_ONLY_PRIMITIVES,
      "upstash-live": "run",
    },
  },
  {
    title: "user-given {tags}",
    group: "conformance",
    load: async () => (await import("../cluster/tagged-names.ts")).runTaggedNamesSuite,
    on: {
      rest: CLUSTER_ONLY_TAGS,
      tcp: CLUSTER_ONLY_TAGS,
      "cluster-rest": "run",
      "cluster-tcp": "run",
      workerd: CLUSTER_ONLY_TAGS,
      "tcp-audited": AUDIT_ONLY_PRIMITIVES,
      "upstash-live": CLUSTER_ONLY_TAGS,
    },
  },
  {
    title: "QuorumLock",
    group: "quorum",
    load: async () => {
      const { runQuorumConformance } = await import("./quorum.conformance.ts");
      return (target) => {
        if (target.quorum === undefined) throw new Error(`${target.name}: no quorum databases`);
        runQuorumConformance(target.quorum);
      };
    },
    on: {
      rest: "run",
      tcp: "run",
      "cluster-rest": QUORUM_NOT_ON_CLUSTER,
      "cluster-tcp": QUORUM_NOT_ON_CLUSTER,
      workerd: "run",
      "tcp-audited": AUDIT_ONLY_PRIMITIVES,
      "upstash-live": LIVE_QUORUM,
    },
  },
  {
    title: "Lock regressions (issue 13)",
    group: "regressions",
    load: async () => (await import("../protocol/lock-regressions.ts")).runLockRegressions,
    on: REGRESSION,
  },
  {
    title: "FairLock and ReadWriteLock regressions (issue 13)",
    group: "regressions",
    load: async () => {
      const { QUEUED_PRIMITIVES, runQueuedLockRegressions } =
        await import("../protocol/queued-lock-regressions.ts");
      return (target) => {
        for (const primitive of QUEUED_PRIMITIVES) runQueuedLockRegressions(target, primitive);
      };
    },
    on: REGRESSION,
  },
  {
    title: "MultiLock regressions (issue 13)",
    group: "regressions",
    load: async () =>
      (await import("../protocol/multi-lock-regressions.ts")).runMultiLockRegressions,
    on: REGRESSION,
  },
  {
    title: "Semaphore regressions (issue 13)",
    group: "regressions",
    load: async () =>
      (await import("../protocol/semaphore-regressions.ts")).runSemaphoreRegressions,
    on: REGRESSION,
  },
  {
    title: "CountDownLatch regressions (issue 13)",
    group: "regressions",
    load: async () => (await import("../protocol/latch-regressions.ts")).runLatchRegressions,
    on: REGRESSION,
  },
  {
    title: "resume regressions (issue 13)",
    group: "regressions",
    load: async () => (await import("../protocol/resume-regressions.ts")).runResumeRegressions,
    on: { ...REGRESSION, workerd: NOT_IN_WORKERD },
  },
  {
    title: "QuorumLock regressions (issue 13)",
    group: "regressions",
    load: async () => (await import("../protocol/quorum-regressions.ts")).runQuorumRegressions,
    on: { ...REGRESSION, workerd: NOT_IN_WORKERD },
  },
];

/**
 * Registers every suite of `group` on `backend`: a `describe` per suite that runs there, a
 * skipped test naming the reason per suite that does not. Call with top-level `await`.
 */
export async function runSuites(
  backend: BackendName,
  group: SuiteGroup,
  target: SuiteTarget,
): Promise<void> {
  for (const suite of SUITES.filter((s) => s.group === group)) {
    const cell = suite.on[backend];
    if (cell === "run") (await suite.load())(target);
    else
      describe(`${suite.title}: ${target.name}`, () => {
        it.skip(`not run on ${backend}: ${cell.skip}`, () => undefined);
      });
  }
}
