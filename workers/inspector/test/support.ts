import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { harness, keyPrefix } from "@edgelock/testkit";
import { createClient } from "@edgelock/core";
import { chromium, type BrowserContext } from "playwright-core";
import { createInspectorApp } from "../src/index.ts";

export const TOKEN = "inspector-test-token-0123456789";

/** A client and an inspector app over the harness rest-server, under a fresh prefix. */
export function makeStack(options: { publicRead?: boolean } = {}) {
  const env = harness();
  const redis = { url: env.restUrl, token: env.restToken };
  const prefix = keyPrefix();
  const client = createClient({ redis, prefix });
  const app = createInspectorApp({ redis, token: TOKEN, prefix, ...options });
  return { client, app, prefix };
}

/** Serves the app on a free loopback port. */
export async function listen(app: { fetch: (request: Request) => Response | Promise<Response> }) {
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Debian's Chromium, with the flags this machine needs (no network but loopback) and a fresh profile. */
export const CHROMIUM_PATH = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export async function launchBrowser(): Promise<{
  context: BrowserContext;
  close(): Promise<void>;
}> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: run bash scripts/setup.sh (apt-get install chromium), or set CHROMIUM_PATH`,
    );
  }
  const profile = mkdtempSync(join(tmpdir(), "edgelock-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: FLAGS,
    viewport: { width: 1280, height: 720 },
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
