import type { Context } from "hono";
import type { HtmlEscapedString } from "hono/utils/html";
import type { AppEnv, Deps } from "./env.ts";
import { layout } from "./html/layout.ts";
import { loginBody } from "./html/login.ts";

type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

/** A full page in the app's frame, with this request's script nonce. */
export function page(
  c: Context<AppEnv>,
  deps: Deps,
  title: string,
  content: { body: Html; script?: string },
  status: 200 | 400 | 401 | 404 = 200,
) {
  const frame = {
    title,
    prefix: deps.options.prefix,
    nonce: c.get("nonce"),
    pollMs: deps.options.pollMs,
    authed: c.get("authed"),
    body: content.body,
  };
  return c.html(
    layout(content.script === undefined ? frame : { ...frame, script: content.script }),
    status,
  );
}

/** 401 with the login form, for pages; the form brings the user back to `next`. */
export function loginPage(c: Context<AppEnv>, deps: Deps, next: string, failed = false) {
  return page(c, deps, "Log in", loginBody({ next, failed }), 401);
}

/** 401 for API callers, naming the two ways in. */
export function unauthorizedJson(c: Context<AppEnv>) {
  c.header("WWW-Authenticate", 'Bearer realm="edgelock-inspector"');
  return c.json(
    { error: "unauthorized: send Authorization: Bearer <token>, or log in at /login" },
    401,
  );
}
