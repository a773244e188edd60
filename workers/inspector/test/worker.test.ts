import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createClient } from "@edgelock/core";
import { harness, keyPrefix } from "@edgelock/testkit";
import { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOKEN } from "./support.ts";

const root = join(import.meta.dirname, "..");

/** The Worker as `wrangler deploy` bundles it, in workerd, reaching the harness rest-server. */
describe("inspector as a Worker (wrangler bundle in workerd)", () => {
  const prefix = keyPrefix();
  let mf: Miniflare;
  let url: string;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "edgelock-inspector-"));
    await promisify(execFile)(
      join(root, "node_modules", ".bin", "wrangler"),
      ["deploy", "--dry-run", "--outdir", dir],
      {
        cwd: root,
        env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "1" },
      },
    );
    const env = harness();
    mf = new Miniflare({
      modules: [
        {
          type: "ESModule",
          path: "worker.js",
          contents: await readFile(join(dir, "worker.js"), "utf8"),
        },
      ],
      compatibilityDate: "2026-04-01",
      bindings: {
        UPSTASH_REDIS_REST_URL: env.restUrl,
        UPSTASH_REDIS_REST_TOKEN: env.restToken,
        INSPECTOR_TOKEN: TOKEN,
        EDGELOCK_PREFIX: prefix,
      },
      host: "127.0.0.1",
      port: 0,
    });
    url = (await mf.ready).href.replace(/\/$/, "");
  });
  afterAll(async () => {
    await mf?.dispose();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("serves the page behind the token and the JSON of a held lock", async () => {
    const env = harness();
    const held = await createClient({ redis: { url: env.restUrl, token: env.restToken }, prefix })
      .lock("orders:42")
      .acquire({ leaseMs: 30_000 });
    expect((await fetch(`${url}/`)).status).toBe(401);
    const login = await fetch(`${url}/login`, {
      method: "POST",
      body: new URLSearchParams({ token: TOKEN, next: "/" }),
      redirect: "manual",
    });
    expect(login.status).toBe(303);
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const page = await fetch(`${url}/`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("orders:42");
    const d = (await (
      await fetch(`${url}/api/describe?name=orders:42`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      })
    ).json()) as { fence: number };
    expect(d.fence).toBe(held.fence);
  });
});
