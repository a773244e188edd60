import type { Context, Hono } from "hono";
import type { InspectKind } from "@edgelock/core";
import { isSameOrigin } from "./auth.ts";
import type { AppEnv, Deps } from "./env.ts";
import { detailView, overviewRow, viewHref } from "./present.ts";
import { loginPage, unauthorizedJson } from "./render.ts";

/** JSON for machines (`snapshot`, `describe`), for the page's script (`overview`, `view`), and the force-unlock. */
export function apiRoutes(app: Hono<AppEnv>, deps: Deps): void {
  const { inspector, options } = deps;
  const readable = (c: Context<AppEnv>) => options.publicRead || c.get("authed");
  const matchOf = (c: Context<AppEnv>) => ({
    ...(c.req.query("match") ? { match: c.req.query("match") as string } : {}),
    limit: options.maxNames,
  });
  const kindOf = (c: Context<AppEnv>) =>
    c.req.query("kind") ? { kind: c.req.query("kind") as InspectKind } : {};

  app.get("/api/snapshot", async (c) => {
    if (!readable(c)) return unauthorizedJson(c);
    return c.json({ prefix: inspector.prefix, ...(await inspector.snapshot(matchOf(c))) });
  });

  app.get("/api/describe", async (c) => {
    if (!readable(c)) return unauthorizedJson(c);
    const d = await inspector.describe(c.req.query("name") ?? "", kindOf(c));
    return d ? c.json(d) : c.json({ error: "nothing lives under this name" }, 404);
  });

  app.get("/api/overview", async (c) => {
    if (!readable(c)) return unauthorizedJson(c);
    const snapshot = await inspector.snapshot(matchOf(c));
    return c.json({ rows: snapshot.descriptions.map(overviewRow), truncated: snapshot.truncated });
  });

  app.get("/api/view", async (c) => {
    if (!readable(c)) return unauthorizedJson(c);
    return c.json(detailView(await inspector.describe(c.req.query("name") ?? "", kindOf(c))));
  });

  app.post("/api/force-unlock", async (c) => {
    const isForm = !(c.req.header("content-type") ?? "").includes("application/json");
    const body = (
      isForm ? await c.req.parseBody() : await c.req.json().catch(() => ({}))
    ) as Record<string, unknown>;
    const name = typeof body["name"] === "string" ? body["name"] : "";
    const kind =
      typeof body["kind"] === "string" && body["kind"] !== ""
        ? (body["kind"] as InspectKind)
        : undefined;
    const back = viewHref(name, kind ?? "");
    if (!c.get("authed") || !isSameOrigin(c))
      return isForm ? loginPage(c, deps, back) : unauthorizedJson(c);
    if (body["confirm"] !== name) {
      if (isForm) return c.redirect(`${back}&result=unconfirmed`, 303);
      return c.json(
        { error: "confirm: must repeat the name exactly", code: "INVALID_ARGUMENT" },
        400,
      );
    }
    const unlocked = await inspector.forceUnlock(name, kind === undefined ? {} : { kind });
    return isForm
      ? c.redirect(`${back}&result=${unlocked ? "unlocked" : "free"}`, 303)
      : c.json({ unlocked });
  });
}
