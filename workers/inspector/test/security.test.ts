import { describe, expect, it } from "vitest";
import { issueSession, SESSION_COOKIE } from "../src/session.ts";
import { makeStack, TOKEN } from "./support.ts";

// Security review (docs/security.md): near-miss credentials, forged and expired sessions, and
// owner ids as the inspector shows them.

const READS = [
  "/",
  "/view?name=x&kind=lock",
  "/api/snapshot",
  "/api/overview",
  "/api/describe?name=x",
  "/api/view?name=x",
];
const NEAR_MISSES = [
  "Bearer",
  "Bearer ",
  `Bearer ${TOKEN}x`,
  `Bearer ${TOKEN.slice(0, -1)}`,
  `Bearer ${TOKEN.toUpperCase()}`,
  `Bearer  ${TOKEN}`,
  TOKEN,
  `Basic ${btoa(`x:${TOKEN}`)}`,
];

describe("inspector security", () => {
  it("answers 401 to near-miss tokens on every read and on force-unlock", async () => {
    const { app, client } = makeStack();
    await client.lock("x").acquire({ leaseMs: 30_000 });
    for (const authorization of NEAR_MISSES) {
      for (const path of READS)
        expect(
          (await app.request(path, { headers: { authorization } })).status,
          `${path} ${authorization}`,
        ).toBe(401);
      const unlock = await app.request("/api/force-unlock", {
        method: "POST",
        headers: { authorization, "content-type": "application/json" },
        body: JSON.stringify({ name: "x", confirm: "x" }),
      });
      expect(unlock.status).toBe(401);
    }
    expect(await client.lock("x").isLocked()).toBe(true);
  });

  it("refuses a session signed with another token, an expired one, and malformed ones", async () => {
    const { app } = makeStack();
    const cookies = [
      await issueSession("another-token-another-token", 60_000),
      await issueSession(TOKEN, -1_000), // expired a second ago
      await issueSession(TOKEN, 60_000, Date.now() - 120_000), // issued two minutes ago for one
      "",
      ".",
      "99999999999999999.AAAA",
      `${Date.now() + 60_000}.`,
      TOKEN,
    ];
    for (const value of cookies) {
      const res = await app.request("/api/snapshot", {
        headers: { cookie: `${SESSION_COOKIE}=${value}` },
      });
      expect(res.status, value).toBe(401);
    }
    const valid = await issueSession(TOKEN, 60_000);
    expect(
      (await app.request("/api/snapshot", { headers: { cookie: `${SESSION_COOKIE}=${valid}` } }))
        .status,
    ).toBe(200);
    // a wrong bearer header is not rescued by a valid cookie
    const both = {
      cookie: `${SESSION_COOKIE}=${valid}`,
      authorization: "Bearer wrong-token-wrong-token",
    };
    expect((await app.request("/api/snapshot", { headers: both })).status).toBe(401);
  });

  it("never shows a generated owner id in full, in JSON or HTML", async () => {
    const { app, client } = makeStack();
    const held = await client.lock("orders:7").acquire({ leaseMs: 30_000 });
    const owner = held.toJSON().owner; // the random 128-bit id core made for this handle
    const bearer = { authorization: `Bearer ${TOKEN}` };
    for (const path of [
      "/",
      "/view?name=orders:7&kind=lock",
      "/api/snapshot",
      "/api/describe?name=orders:7",
      "/api/view?name=orders:7",
    ]) {
      const body = await (await app.request(path, { headers: bearer })).text();
      expect(body, path).not.toContain(owner);
    }
    const described = (await (
      await app.request("/api/describe?name=orders:7", { headers: bearer })
    ).json()) as { holders: { owner: string }[] };
    expect(described.holders[0]?.owner).toBe(`${owner.slice(0, 6)}…`);
  });
});
