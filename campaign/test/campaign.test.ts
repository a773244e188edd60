import { describe, expect, it } from "vitest";
import { runCampaign, type CampaignOptions, type CampaignResult } from "../src/campaign.ts";
import { testSeams } from "../../packages/core/src/test-seams.ts";
import { DEFAULT_FAULTS } from "../src/faults/catalog.ts";
import type { Fault } from "../src/faults/fault.ts";
import { latePushFault } from "../src/faults/push.ts";
import { ALL_ACTIVITIES } from "../src/workload/activities.ts";
import {
  fairLockActivity,
  lockActivity,
  permitSemaphoreActivity,
  type Activity,
} from "../src/workload/primitives/index.ts";
import { runSection } from "../src/workload/section.ts";

// The bounded campaigns of `pnpm test`: a fixed seed (override with EDGELOCK_CAMPAIGN_SEED), so
// every run draws the same faults and workloads; only timing differs. `pnpm test:faults` runs
// longer ones (EDGELOCK_CAMPAIGN_SECONDS).
const seed = Number(process.env["EDGELOCK_CAMPAIGN_SEED"] || 20_240_607);
const SECONDS = 20;
const REQUEST_FAULTS = [
  "latency",
  "fail-before",
  "fail-after",
  "drop-before",
  "drop-after",
  "hang",
];

function expectFullCoverage({ result }: CampaignResult): void {
  expect(result.violations).toEqual([]);
  const f = result.figures;
  for (const fault of DEFAULT_FAULTS) {
    expect(f.faults[fault.kind]?.episodes ?? 0, fault.kind).toBeGreaterThan(0);
  }
  // Request faults really hit requests (and the checker saw each one reach a client and surface).
  for (const kind of REQUEST_FAULTS) expect(f.faults[kind]?.injected ?? 0, kind).toBeGreaterThan(0);
  for (const { kind } of ALL_ACTIVITIES) {
    if (kind !== "count-down-latch")
      expect(f.sectionsByPrimitive[kind] ?? 0, kind).toBeGreaterThan(0);
  }
  expect(f.latchRounds).toBeGreaterThan(0);
  expect(f.dataLosses).toBeGreaterThan(0);
  expect(Object.keys(f.hits).length).toBeGreaterThan(0);
  // Waiters entered on pushed grants (the shared pattern stream, as over Upstash), some late.
  expect(f.push.messages).toBeGreaterThan(0);
  expect(f.push.delayed).toBeGreaterThan(0);
}

describe.sequential("fault campaign (bounded)", () => {
  it("quarantine off: every primitive under every fault, overlaps only across a detected data loss", async () => {
    const run = await runCampaign({
      seconds: SECONDS,
      seed,
      workers: 10,
      log: (line) => console.log(line),
    });
    console.log(run.report);
    expectFullCoverage(run);
  });

  it("quarantine on: no overlap of leased holds even across a data loss", async () => {
    const run = await runCampaign({
      seconds: SECONDS,
      seed,
      workers: 10,
      quarantineMs: 3_000,
      log: (line) => console.log(line),
    });
    console.log(run.report);
    expectFullCoverage(run);
    expect(run.result.figures.events["quarantined"] ?? 0).toBeGreaterThan(0);
  });
});

describe("fault campaign: the instrumentation catches a broken primitive", () => {
  // A "lock" that grants everyone at once, with increasing fences: the campaign must report it.
  let fence = 0;
  const brokenLock: Activity = {
    kind: "broken-lock",
    weight: 1,
    run: (worker) =>
      runSection(worker, {
        primitive: "lock",
        mode: "exclusive",
        resources: ["lock:broken"],
        capacity: 1,
        acquire: () =>
          Promise.resolve({ fences: { "lock:broken": ++fence }, release: () => Promise.resolve() }),
      }),
  };

  it("reports overlaps and rejected writes of holders that were never told", async () => {
    const run = await runCampaign({
      seconds: 3,
      seed,
      workers: 4,
      faults: [],
      activities: [brokenLock],
    });
    const rules = new Set(run.result.violations.map((v) => v.rule));
    expect(rules).toContain("overlap");
    expect(rules).toContain("stale-write");
  });
});

/** The focused worlds below: six workers on `activities` for 8 s, under one fault. */
function focusedWorld(
  activities: readonly Activity[],
  fault: Fault,
  runSeed: number,
  more: Pick<CampaignOptions, "leaseProbeChance"> = {},
): Promise<CampaignResult> {
  return runCampaign({
    seconds: 8,
    seed: runSeed,
    workers: 6,
    faults: [fault],
    activities: [...activities],
    ...more,
  });
}

const LOCKS = [lockActivity, fairLockActivity];

/**
 * Runs a focused world on up to three seeds (`seed`, `seed + 1`, `seed + 2`) until one run shows
 * `sought`; `eachRun` checks every run first. Random faults on a loaded CI machine may leave one
 * run without the case it is about (no background request inside a cut-off, no entry on a late
 * message before the waiter's own poll), and a check must not pass or fail on that luck.
 */
async function seekWithinThreeRuns(
  world: (runSeed: number) => Promise<CampaignResult>,
  sought: { readonly what: string; readonly found: (run: CampaignResult) => boolean },
  eachRun: (run: CampaignResult) => void = () => undefined,
): Promise<void> {
  const reports: string[] = [];
  for (let attempt = 0; attempt < 3; attempt++) {
    const run = await world(seed + attempt);
    eachRun(run);
    if (sought.found(run)) {
      console.info(`${sought.what} in run ${attempt + 1} of up to 3`);
      return;
    }
    reports.push(run.report);
  }
  expect.fail(`no ${sought.what} in 3 runs:\n${reports.join("\n")}`);
}

const violated = (rule: string) => (run: CampaignResult) =>
  run.result.violations.some((v) => v.rule === rule);

describe("fault campaign: late push, and a renewal failure that goes untold", () => {
  // Every worker's messages on time or a little late, each followed by a cut-off from Redis
  // (requests fail unsent, as with a connection refused): the keeper's renewals and the claims
  // of grants entered on those messages fail in the background, and must be told.
  const cutOffAfterEachMessage = latePushFault({
    share: 1,
    delayMs: (rng) => rng.int(0, 300),
    cutChance: 0,
    cutOffChance: 1,
    cutOffMs: (rng) => rng.int(300, 800),
  });
  const focused = (runSeed = seed) => focusedWorld(LOCKS, cutOffAfterEachMessage, runSeed);

  it("told (renew-failed), the checker finds every failure surfaced", async () => {
    // Until a renewal or claim fails in a cut-off (a CI run at a807465 had none: 0 renew-failed,
    // 0 violations); every run must be clean.
    await seekWithinThreeRuns(
      focused,
      {
        what: "renew-failed told",
        found: (run) => (run.result.figures.events["renew-failed"] ?? 0) > 0,
      },
      (run) => {
        // Every rule, not only the one the pair is about: under late push and cut-offs a hold
        // entered on a message must stay honest and exclusive too.
        expect(run.result.violations, run.report).toEqual([]);
        expect(run.result.figures.push.cutOff).toBeGreaterThan(0);
      },
    );
  }, 120_000);

  it("untold (seam renewFailuresUntold), the checker reports the failures it never saw surface", async () => {
    testSeams.renewFailuresUntold = true;
    try {
      // A run with no background request inside a cut-off has nothing to leave untold (a CI run
      // at 0b38497 had none).
      await seekWithinThreeRuns(focused, {
        what: "fault-unsurfaced",
        found: violated("fault-unsurfaced"),
      });
    } finally {
      testSeams.renewFailuresUntold = false;
    }
  }, 120_000);
});

// Every worker's messages 20-80 ms late, never cut, never cut off: a waiter that enters on such
// a message may count only from its last busy attempt; one that counts from the arrival
// believes its lease lasts for as long as the message was late beyond the server's. (Later
// messages, 100-600 ms, lose more often to the waiter's own poll: a CI run at bc70e9a found no
// dishonest lease over 54 of them.)
const lateMessages = latePushFault({
  share: 1,
  delayMs: (rng) => rng.int(20, 80),
  cutChance: 0,
  cutOffChance: 0,
  cutOffMs: () => 0,
});

// Every section probed. Locks: locally 3-23 dishonest leases per 8 s run with the seam, idle or
// under two CPU burners; none without it. PermitExpirableSemaphore (two permits, its probe reads
// the permit's lease through the inspector): 4-5 per run over seeds 1-3 with the seam, 7-12 of
// about 65 probes judged; none without it (22-31 judged).
describe.each([
  { world: "Lock and FairLock", activities: LOCKS },
  { world: "PermitExpirableSemaphore", activities: [permitSemaphoreActivity] },
])(
  "fault campaign: late push on the $world, a grant counted from its message's arrival",
  ({ activities }) => {
    const focused = (runSeed: number) =>
      focusedWorld(activities, lateMessages, runSeed, { leaseProbeChance: 1 });

    it("as the core counts it (from the last busy attempt), every probed lease is honest", async () => {
      const run = await focused(seed);
      expect(run.result.violations, run.report).toEqual([]);
      expect(run.result.figures.leaseProbes.judged).toBeGreaterThan(0);
      expect(run.result.figures.push.delayed).toBeGreaterThan(0);
    });

    it("from the arrival (seam pushedGrantFromArrival), the checker reports a dishonest lease", async () => {
      testSeams.pushedGrantFromArrival = true;
      try {
        // Caught when a waiter entered on a late message before its own poll (on a loaded CI
        // machine one run may see no such entry).
        await seekWithinThreeRuns(focused, {
          what: "dishonest-lease",
          found: violated("dishonest-lease"),
        });
      } finally {
        testSeams.pushedGrantFromArrival = false;
      }
    }, 240_000);
  },
);
