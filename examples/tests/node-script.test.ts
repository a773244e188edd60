import { createClient } from "@edgelock/core";
import { harness, keyPrefix } from "@edgelock/testkit";
import { expect, it } from "vitest";
import { runNightlyJob } from "../node-script/src/job.ts";

it("two instances started together: one runs the job, the other skips", async () => {
  const h = harness();
  const prefix = keyPrefix();
  const instance = () => createClient({ redis: { url: h.restUrl, token: h.restToken }, prefix });
  const lines: string[] = [];
  const outcomes = await Promise.all(
    [instance(), instance()].map((c) =>
      runNightlyJob(c, { workMs: 300, log: (l) => lines.push(l) }),
    ),
  );
  expect(outcomes.sort()).toEqual(["done", "skipped"]);
  expect(lines.filter((l) => l.startsWith("step")).length).toBe(3);
  expect(await instance().lock("jobs:nightly-report").isLocked()).toBe(false);
});
