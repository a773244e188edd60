import { describe, expect, it } from "vitest";
import { emptyHistory } from "../src/history/types.ts";
import { checkQuorumHistory } from "../src/quorum/check.ts";
import { runQuorumCampaign } from "../src/quorum/run.ts";

// The bounded quorum campaign of `pnpm test`: a fixed seed (override with EDGELOCK_CAMPAIGN_SEED);
// `pnpm test:faults` runs a longer one (EDGELOCK_CAMPAIGN_SECONDS).
const seed = Number(process.env["EDGELOCK_CAMPAIGN_SEED"] || 20_240_607);

describe("quorum campaign (bounded)", () => {
  it("5 databases crashed and restarted at random: 0 violations, fail-safe with a majority down", async () => {
    const { result, driver, report } = await runQuorumCampaign({ seconds: 20, seed, workers: 6 });
    console.log(report);
    expect(result.violations).toEqual([]);
    const f = result.figures;
    expect(f.sections).toBeGreaterThan(30);
    expect(f.writes.accepted).toBeGreaterThan(0);
    for (const [kind, count] of Object.entries(driver.restarts))
      expect(count, kind).toBeGreaterThan(0);
    expect(driver.maxDownOutsideEpisodes).toBeLessThanOrEqual(2);
    expect(driver.episodes.length).toBeGreaterThan(0);
    const inside = Object.values(result.duringMajorityDown).reduce((a, b) => a + b, 0);
    expect(inside).toBeGreaterThan(0);
  });
});

describe("quorum checker", () => {
  const episode = { startSeq: 10, endSeq: 20, down: [0, 1, 2] };
  it("flags a grant made while a majority was down, and accepts typed failures", () => {
    const history = emptyHistory(1);
    const acquires = [
      { startSeq: 11, endSeq: 12, outcome: "QUORUM" },
      { startSeq: 13, endSeq: 14, outcome: "ACQUIRE_TIMEOUT" },
      { startSeq: 15, endSeq: 16, outcome: "granted" },
      { startSeq: 5, endSeq: 12, outcome: "granted" }, // started before the episode
    ];
    const result = checkQuorumHistory(history, acquires, [episode]);
    expect(result.violations.map((v) => v.rule)).toEqual(["granted-without-quorum"]);
    expect(result.duringMajorityDown).toEqual({ QUORUM: 1, ACQUIRE_TIMEOUT: 1, granted: 1 });
  });
});
