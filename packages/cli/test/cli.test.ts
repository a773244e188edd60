import { createClient } from "@edgelock/core";
import { harness, keyPrefix } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli.ts";

function setup() {
  const env = harness();
  const prefix = keyPrefix();
  const client = createClient({ redis: { url: env.restUrl, token: env.restToken }, prefix });
  const vars = { UPSTASH_REDIS_REST_URL: env.restUrl, UPSTASH_REDIS_REST_TOKEN: env.restToken };
  return { client, prefix, vars };
}

describe("edgelock CLI (spawned against the rest-server)", () => {
  it("prints help, and refuses a bad command line with exit 2", async () => {
    const help = await runCli(["--help"], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("edgelock unlock <name> --force");
    const unknown = await runCli(["frobnicate"], {});
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
    const flag = await runCli(["inspect", "--nope"], {});
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/--nope/);
  });

  it("names the missing environment variable", async () => {
    const { vars } = setup();
    const noUrl = await runCli(["inspect"], {
      UPSTASH_REDIS_REST_TOKEN: vars.UPSTASH_REDIS_REST_TOKEN,
    });
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain("UPSTASH_REDIS_REST_URL is not set");
    const noToken = await runCli(["inspect"], {
      UPSTASH_REDIS_REST_URL: vars.UPSTASH_REDIS_REST_URL,
    });
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain("UPSTASH_REDIS_REST_TOKEN is not set");
  });

  it("inspects a held lock: the overview, the detail and JSON, owners masked", async () => {
    const { client, prefix, vars } = setup();
    const held = await client
      .lock("orders:42", { owner: "checkout-7f3a9c21e4b8" })
      .acquire({ leaseMs: 30_000 });
    const list = await runCli(["inspect", "--prefix", prefix], vars);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^NAME\s+KIND\s+HOLDERS/m);
    expect(list.stdout).toMatch(/orders:42\s+lock\s+checko…/);
    const detail = await runCli(["inspect", "orders:42", "--prefix", prefix], vars);
    expect(detail.code).toBe(0);
    expect(detail.stdout).toContain("orders:42  (lock)");
    expect(detail.stdout).toContain(String(held.fence));
    expect(detail.stdout).not.toContain("checkout-7f3a9c21e4b8");
    const json = await runCli(
      ["inspect", "orders:42", "--json", "--reveal-owners", "--prefix", prefix],
      vars,
    );
    expect(JSON.parse(json.stdout)).toMatchObject({
      name: "orders:42",
      kind: "lock",
      fence: held.fence,
      holders: [{ owner: "checkout-7f3a9c21e4b8", count: 1 }],
    });
    const missing = await runCli(["inspect", "orders:43", "--prefix", prefix], vars);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('nothing lives under "orders:43"');
  });

  it("unlocks only with --force, and says when nothing was held", async () => {
    const { client, prefix, vars } = setup();
    await client.lock("stuck").acquire({ leaseMs: 30_000 });
    const refused = await runCli(["unlock", "stuck", "--prefix", prefix], vars);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("without --force");
    expect(await client.lock("stuck").isLocked()).toBe(true);
    const done = await runCli(["unlock", "stuck", "--force", "--prefix", prefix], vars);
    expect(done.code).toBe(0);
    expect(done.stdout).toContain('force-unlocked "stuck"');
    expect(await client.lock("stuck").isLocked()).toBe(false);
    const again = await runCli(["unlock", "stuck", "--force", "--json", "--prefix", prefix], vars);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stderr.replace(/^edgelock: /, ""))).toEqual({
      name: "stuck",
      unlocked: false,
    });
  });

  it("reports a refused token and a bad --kind clearly", async () => {
    const { vars } = setup();
    const badToken = await runCli(["inspect"], {
      ...vars,
      UPSTASH_REDIS_REST_TOKEN: "not-the-token",
    });
    expect(badToken.code).toBe(1);
    expect(badToken.stderr).toContain("refused UPSTASH_REDIS_REST_TOKEN (HTTP 401)");
    const badKind = await runCli(["inspect", "x", "--kind", "mutex"], vars);
    expect(badKind.code).toBe(2);
    expect(badKind.stderr).toContain("--kind: must be one of");
  });
});
