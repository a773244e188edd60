import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EdgelockClient } from "@edgelock/core";
import type { Page } from "playwright-core";
import { launchBrowser, listen, makeStack, TOKEN } from "./support.ts";

const SCREENSHOT = join(import.meta.dirname, "../../../docs/inspector.png");

/** End to end in Debian's headless Chromium: the page a person would use, against real Redis. */
describe("inspector in a browser", () => {
  let stack: ReturnType<typeof makeStack>;
  let server: Awaited<ReturnType<typeof listen>>;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;

  beforeAll(async () => {
    stack = makeStack();
    server = await listen(stack.app);
    browser = await launchBrowser();
    page = await browser.context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const row = (name: string) => page.locator(`#rows tr[data-name="${name}"]`);

  it("logs in through the form and shows a lock the test takes, then drops it when released", async () => {
    await page.goto(`${server.url}/`);
    await page.fill('input[name="token"]', TOKEN);
    await page.click('button[type="submit"]');
    await page.waitForURL(`${server.url}/`);
    await page.locator("#empty").waitFor({ state: "visible" });

    const held = await stack.client.lock("orders:42").acquire({ leaseMs: 60_000 });
    // no reload: the page's script polls and re-renders
    await row("orders:42").waitFor({ state: "visible" });
    expect(await row("orders:42").locator("td.kind").textContent()).toBe("lock");
    expect(await row("orders:42").locator("td.fence").textContent()).toBe(String(held.fence));
    expect(await page.locator("#status").getAttribute("class")).toBe("ok");

    await held.release();
    await row("orders:42").waitFor({ state: "detached" });
    await page.locator("#empty").waitFor({ state: "visible" });
  });

  it("force-unlocks from the detail view after the name is typed to confirm", async () => {
    const held = await stack.client
      .lock("stuck:job", { owner: "crashed-worker-7f3a9c21e4" })
      .acquire({ leaseMs: 60_000 });
    await row("stuck:job").waitFor({ state: "visible" });
    await row("stuck:job").locator("a").click();
    await page.waitForURL(/\/view\?name=stuck%3Ajob&kind=lock/);
    expect(await page.locator("#holders").textContent()).toContain("crashe…");
    expect(await page.content()).not.toContain("crashed-worker-7f3a9c21e4");

    await page.click("#force-unlock summary");
    await page.fill('#force-unlock input[name="confirm"]', "stuck:jo"); // wrong: refused
    await page.click("#force-unlock button.danger");
    await page.waitForURL(/result=unconfirmed/);
    expect(await stack.client.lock("stuck:job").isLocked()).toBe(true);

    await page.click("#force-unlock summary");
    await page.fill('#force-unlock input[name="confirm"]', "stuck:job");
    await page.click("#force-unlock button.danger");
    await page.waitForURL(/result=unlocked/);
    expect(await page.locator("#notice").textContent()).toContain("Force-unlocked");
    expect(await stack.client.lock("stuck:job").isLocked()).toBe(false);
    await page.locator("#gone").waitFor({ state: "visible" });
    await expect(held.extend(1_000)).rejects.toThrow(/not held/);
  });

  it("keeps a screenshot of real data in docs/inspector.png", async () => {
    const stop = await scene(stack.client);
    try {
      await page.goto(`${server.url}/`);
      await row("orders:42").waitFor({ state: "visible" });
      await page.waitForFunction(() => document.querySelectorAll("#rows tr").length >= 6);
      await page.locator("#status.ok").waitFor();
      mkdirSync(dirname(SCREENSHOT), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
      expect(await page.locator("#rows tr").count()).toBeGreaterThanOrEqual(6);
    } finally {
      await stop();
    }
  });
});

/** A few names of every kind, with holders and waiters, the way a busy system looks. */
async function scene(client: EdgelockClient) {
  const controller = new AbortController();
  const waiting: Promise<unknown>[] = [];
  const wait = (p: Promise<unknown>) => waiting.push(p.catch(() => undefined));
  const order = client.lock("orders:42");
  await order.acquire({ leaseMs: 45_000 });
  await order.acquire({ leaseMs: 45_000 });
  wait(client.lock("orders:42").acquire({ waitMs: 60_000, signal: controller.signal }));
  wait(client.lock("orders:42").acquire({ waitMs: 60_000, signal: controller.signal }));
  await client.fairLock("inventory:sku-123").acquire({ leaseMs: 20_000 });
  wait(client.fairLock("inventory:sku-123").acquire({ waitMs: 60_000, signal: controller.signal }));
  const reports = client.readWriteLock("reports:daily");
  await reports.read.acquire({ leaseMs: 30_000 });
  await client.readWriteLock("reports:daily").read.acquire({ leaseMs: 25_000 });
  const quota = client.semaphore("api-quota");
  await quota.trySetPermits(5);
  await quota.acquire({ permits: 3 });
  const jobs = client.permitExpirableSemaphore("render-jobs");
  await jobs.trySetPermits(3);
  await jobs.acquire({ leaseMs: 40_000 });
  await jobs.acquire({ leaseMs: 15_000 });
  await client.countDownLatch("deploy:shards").trySetCount(4);
  await client.countDownLatch("deploy:shards").countDown();
  return async () => {
    controller.abort();
    await Promise.all(waiting);
  };
}
