import { describe, expect, it } from "vitest";
import { runCampaign, type CampaignResult } from "../src/campaign.ts";
import { DEFAULT_FAULTS } from "../src/faults/catalog.ts";
import { ALL_ACTIVITIES } from "../src/workload/activities.ts";

// The bounded campaigns of `pnpm test`: a fixed seed (override with EDGELOCK_CAMPAIGN_SEED), so
// every run draws the same faults and workloads; only timing differs. `pnpm test:faults` runs
// longer ones (EDGELOCK_CAMPAIGN_SECONDS).
const seed = Number(process.env["EDGELOCK_CAMPAIGN_SEED"] || 20_240_607);
const SECONDS = 20;

function expectFullCoverage({ result }: CampaignResult): void {
  expect(result.violations).toEqual([]);
  const f = result.figures;
  for (const fault of DEFAULT_FAULTS)
    expect(f.faults[fault.kind]?.episodes ?? 0, fault.kind).toBeGreaterThan(0);
  for (const { kind } of ALL_ACTIVITIES) {
    if (kind !== "latch") expect(f.sectionsByPrimitive[kind] ?? 0, kind).toBeGreaterThan(0);
  }
  expect(f.latchRounds).toBeGreaterThan(0);
  expect(f.dataLosses).toBeGreaterThan(0);
  expect(Object.keys(f.hits).length).toBeGreaterThan(0);
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
