import type { Hono } from "hono";
import type { InspectKind } from "@edgelock/core";
import type { AppEnv, Deps } from "./env.ts";
import { detailBody } from "./html/detail.ts";
import { overviewBody } from "./html/overview.ts";
import { detailView, overviewRow } from "./present.ts";
import { loginPage, page } from "./render.ts";

const RESULTS: Record<string, { notice?: string; error?: string }> = {
  unlocked: {
    notice: "Force-unlocked: every hold was deleted and the first waiter, if any, was served.",
  },
  free: { notice: "Nothing to unlock: it was already free." },
  unconfirmed: { error: "Not unlocked: the name typed did not match." },
};

/** The overview and the detail page, server-rendered with the data of this moment. */
export function pageRoutes(app: Hono<AppEnv>, deps: Deps): void {
  const { inspector, options } = deps;

  app.get("/", async (c) => {
    if (!options.publicRead && !c.get("authed"))
      return loginPage(c, deps, c.req.path + (new URL(c.req.url).search || ""));
    const match = c.req.query("match");
    const snapshot = await inspector.snapshot({
      ...(match ? { match } : {}),
      limit: options.maxNames,
    });
    return page(
      c,
      deps,
      "Locks",
      overviewBody(snapshot.descriptions.map(overviewRow), snapshot.truncated),
    );
  });

  app.get("/view", async (c) => {
    const url = new URL(c.req.url);
    if (!options.publicRead && !c.get("authed"))
      return loginPage(c, deps, url.pathname + url.search);
    const name = c.req.query("name") ?? "";
    const kind = c.req.query("kind") ?? "";
    const d = await inspector.describe(name, kind ? { kind: kind as InspectKind } : {});
    const shownKind = d?.kind ?? kind;
    const unlockable = inspector.unlockableKinds.includes(shownKind as InspectKind);
    const unlock = !unlockable ? "none" : c.get("authed") ? "form" : "login";
    const result = RESULTS[c.req.query("result") ?? ""] ?? {};
    return page(
      c,
      deps,
      name,
      detailBody({ name, kind: shownKind, view: detailView(d), unlock, ...result }),
    );
  });
}
