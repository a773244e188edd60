import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "@edgelock/core";
import { createInspectorApp } from "../src/index.ts";
import { makeStack, TOKEN } from "./support.ts";

const bearer = { authorization: `Bearer ${TOKEN}` };

describe("inspector app", () => {
  it("needs the token for pages and JSON: 401 and the login form otherwise", async () => {
    const { app } = makeStack();
    const page = await app.request("/");
    expect(page.status).toBe(401);
    expect(await page.text()).toContain('action="/login"');
    expect((await app.request("/api/snapshot")).status).toBe(401);
    expect(
      (
        await app.request("/api/snapshot", {
          headers: { authorization: "Bearer wrong-token-wrong-token" },
        })
      ).status,
    ).toBe(401);
    expect((await app.request("/api/snapshot", { headers: bearer })).status).toBe(200);
  });

  it("logs in with the form: an HttpOnly, SameSite=Strict cookie that opens the pages", async () => {
    const { app } = makeStack();
    const wrong = await app.request("/login", {
      method: "POST",
      body: new URLSearchParams({ token: "nope", next: "/" }),
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("set-cookie")).toBeNull();
    const ok = await app.request("/login", {
      method: "POST",
      body: new URLSearchParams({ token: TOKEN, next: "//evil.example/" }),
    });
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe("/"); // no open redirect
    const cookie = ok.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).not.toContain(TOKEN);
    const session = cookie.split(";")[0] ?? "";
    expect((await app.request("/", { headers: { cookie: session } })).status).toBe(200);
    expect(
      (
        await app.request("/", {
          headers: { cookie: session.replace(/.$/, (c) => (c === "A" ? "B" : "A")) },
        })
      ).status,
    ).toBe(401);
  });

  it("shows a held lock in the JSON and the page, owners masked, names escaped", async () => {
    const { app, client } = makeStack();
    const owner = "the-full-owner-id-that-must-not-leak";
    await client.lock("orders:42", { owner }).acquire({ leaseMs: 20_000 });
    await client.lock("<script>alert(1)</script>").acquire();
    const snapshot = (await (await app.request("/api/snapshot", { headers: bearer })).json()) as {
      descriptions: { name: string; holders: { owner: string }[] }[];
    };
    const orders = snapshot.descriptions.find((d) => d.name === "orders:42");
    expect(orders?.holders[0]?.owner).toBe("the-fu…");
    const html = await (await app.request("/", { headers: bearer })).text();
    expect(html).toContain("orders:42");
    expect(html).not.toContain(owner);
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    const page = await app.request("/", { headers: bearer });
    expect(page.headers.get("content-security-policy")).toMatch(/script-src 'nonce-[0-9a-f]{32}'/);
  });

  it("describes one name, 404 when nothing lives there, 400 naming a bad argument", async () => {
    const { app, client } = makeStack();
    await client.semaphore("pool").trySetPermits(4);
    const d = await app.request("/api/describe?name=pool", { headers: bearer });
    expect(await d.json()).toMatchObject({
      name: "pool",
      kind: "semaphore",
      permits: { available: 4, total: 4 },
    });
    expect((await app.request("/api/describe?name=missing", { headers: bearer })).status).toBe(404);
    const bad = await app.request("/api/describe?name=pool&kind=mutex", { headers: bearer });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      code: "INVALID_ARGUMENT",
      error: expect.stringContaining("options.kind"),
    });
  });

  it("force-unlocks only with the token, the same origin and the name repeated", async () => {
    const { app, client } = makeStack();
    await client.lock("stuck").acquire({ leaseMs: 30_000 });
    const post = (body: object, headers: Record<string, string> = {}) =>
      app.request("/api/force-unlock", {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      });
    expect((await post({ name: "stuck", confirm: "stuck" })).status).toBe(401);
    expect((await post({ name: "stuck", confirm: "stuc" }, bearer)).status).toBe(400);
    expect(await client.lock("stuck").isLocked()).toBe(true);
    const ok = await post({ name: "stuck", kind: "lock", confirm: "stuck" }, bearer);
    expect(await ok.json()).toEqual({ unlocked: true });
    expect(await client.lock("stuck").isLocked()).toBe(false);
    expect(await (await post({ name: "stuck", confirm: "stuck" }, bearer)).json()).toEqual({
      unlocked: false,
    });

    const login = await app.request("/login", {
      method: "POST",
      body: new URLSearchParams({ token: TOKEN, next: "/" }),
    });
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    await client.lock("stuck").acquire({ leaseMs: 30_000 });
    const form = (origin: string) =>
      app.request("http://localhost/api/force-unlock", {
        method: "POST",
        headers: { cookie, origin },
        body: new URLSearchParams({ name: "stuck", kind: "lock", confirm: "stuck" }),
      });
    expect((await form("http://evil.example")).status).toBe(401);
    const done = await form("http://localhost");
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe("/view?name=stuck&kind=lock&result=unlocked");
  });

  it("lets anyone read with publicRead, never force-unlock", async () => {
    const { app, client } = makeStack({ publicRead: true });
    await client.lock("open").acquire({ leaseMs: 30_000 });
    expect((await app.request("/")).status).toBe(200);
    const view = await (await app.request("/view?name=open&kind=lock")).text();
    expect(view).toContain("Log in</a> to force-unlock");
    const res = await app.request("/api/force-unlock", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "open", confirm: "open" }),
    });
    expect(res.status).toBe(401);
  });

  it("validates its options, naming the argument", () => {
    const argumentOf = (f: () => unknown) => {
      try {
        f();
        return null;
      } catch (e) {
        return e instanceof InvalidArgumentError ? e.argument : String(e);
      }
    };
    expect(
      argumentOf(() =>
        createInspectorApp({ redis: { url: "http://x", token: "t" }, token: "short" }),
      ),
    ).toBe("options.token");
    expect(argumentOf(() => createInspectorApp({ token: TOKEN } as never))).toBe("options.redis");
    expect(
      argumentOf(() =>
        createInspectorApp({ redis: { url: "http://x", token: "t" }, token: TOKEN, pollMs: 10 }),
      ),
    ).toBe("options.pollMs");
    expect(
      argumentOf(() =>
        createInspectorApp({
          redis: { url: "http://x", token: "t" },
          token: TOKEN,
          prefix: "{bad}",
        }),
      ),
    ).toBe("options.prefix");
  });
});
