import { html, raw } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";

type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

const STYLE = `
:root { color-scheme: light; --fg:#1d2330; --muted:#667085; --line:#e4e7ec; --accent:#2457d6; --bad:#b42318; --ok:#067647; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: #f8f9fb; }
header { display: flex; align-items: baseline; gap: 16px; padding: 14px 24px; background: #fff; border-bottom: 1px solid var(--line); }
header h1 { font-size: 17px; margin: 0; } header .prefix { color: var(--muted); }
header .right { margin-left: auto; display: flex; gap: 12px; align-items: baseline; }
main { padding: 20px 24px; max-width: 1280px; }
table { width: 100%; border-collapse: collapse; background: #fff; border: 1px solid var(--line); }
th, td { text-align: left; padding: 8px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); background: #fcfcfd; }
td.lease, td.fence { font-variant-numeric: tabular-nums; white-space: nowrap; }
a { color: var(--accent); text-decoration: none; } a:hover { text-decoration: underline; }
#status.ok { color: var(--ok); } #status.err { color: var(--bad); }
.muted { color: var(--muted); } .notice { padding: 10px 12px; background: #ecfdf3; border: 1px solid #abefc6; margin-bottom: 14px; }
.error { padding: 10px 12px; background: #fef3f2; border: 1px solid #fecdca; color: var(--bad); margin-bottom: 14px; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; background: #fff; border: 1px solid var(--line); padding: 12px 16px; }
dt { color: var(--muted); } dd { margin: 0; }
h2 { font-size: 15px; margin: 22px 0 8px; }
details.danger { margin-top: 24px; border: 1px solid #fecdca; background: #fff; padding: 10px 14px; }
details.danger summary { color: var(--bad); cursor: pointer; font-weight: 600; }
input[type=text], input[type=password] { padding: 6px 8px; border: 1px solid #d0d5dd; border-radius: 4px; min-width: 280px; }
button { padding: 6px 12px; border-radius: 4px; border: 1px solid #d0d5dd; background: #fff; cursor: pointer; }
button.danger { background: var(--bad); color: #fff; border-color: var(--bad); }
form.inline { display: inline; }
`;

/** The page frame. Styles and the one script are inline: the app serves no other files. */
export function layout(p: {
  title: string;
  prefix: string;
  nonce: string;
  pollMs: number;
  authed: boolean;
  body: Html;
  script?: string;
}): Html {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${p.title} · edgelock inspector</title>
        <style>
          ${raw(STYLE)}
        </style>
      </head>
      <body data-poll="${p.pollMs}">
        <header>
          <h1><a href="/">edgelock inspector</a></h1>
          <span class="prefix">prefix <code>${p.prefix}</code></span>
          <span class="right"
            ><span id="status" class="muted">server-rendered</span>${
              p.authed
                ? html`<form class="inline" method="post" action="/logout">
                    <button type="submit">Log out</button>
                  </form>`
                : html`<a href="/login">Log in</a>`
            }</span
          >
        </header>
        <main>${p.body}</main>
        ${
          p.script
            ? html`<script nonce="${p.nonce}">
                ${raw(p.script)};
              </script>`
            : ""
        }
      </body>
    </html>`;
}
