import type { Hono } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import { safeNext } from "./auth.ts";
import type { AppEnv, Deps } from "./env.ts";
import { loginPage } from "./render.ts";
import { safeEqual } from "./safe-equal.ts";
import { issueSession, SESSION_COOKIE } from "./session.ts";

/** GET/POST /login and POST /logout: the token, typed once, becomes an HttpOnly cookie. */
export function loginRoutes(app: Hono<AppEnv>, deps: Deps): void {
  app.get("/login", (c) => loginPage(c, deps, safeNext(c.req.query("next")), false));

  app.post("/login", async (c) => {
    const form = await c.req.parseBody();
    const next = safeNext(typeof form["next"] === "string" ? form["next"] : undefined);
    const token = typeof form["token"] === "string" ? form["token"] : "";
    if (!(await safeEqual(token, deps.options.token))) return loginPage(c, deps, next, true);
    setCookie(c, SESSION_COOKIE, await issueSession(deps.options.token, deps.options.sessionMs), {
      httpOnly: true,
      sameSite: "Strict",
      secure: new URL(c.req.url).protocol === "https:",
      path: "/",
      maxAge: Math.floor(deps.options.sessionMs / 1_000),
    });
    return c.redirect(next, 303);
  });

  app.post("/logout", (c) => {
    deleteCookie(c, SESSION_COOKIE, { path: "/" });
    return c.redirect("/login", 303);
  });
}
