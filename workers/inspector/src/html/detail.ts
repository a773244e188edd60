import { html } from "hono/html";
import type { DetailView } from "../present.ts";
import { DETAIL_SCRIPT } from "./scripts.ts";

const HOLDER_COLUMNS = ["owner", "mode", "count", "lease left", "fence", "claimed"];
const WAITER_COLUMNS = ["position", "owner", "permits", "poll deadline in"];

/** One name of one kind, live; the force-unlock form when the viewer may use it. */
export function detailBody(p: {
  name: string;
  kind: string;
  view: DetailView;
  unlock: "form" | "login" | "none";
  notice?: string;
  error?: string;
}) {
  const v = p.view;
  return {
    script: DETAIL_SCRIPT,
    body: html`<h2 id="title" data-name="${p.name}" data-kind="${p.kind}">
        ${p.name} <span class="muted">${p.kind}</span>
      </h2>
      ${p.notice ? html`<p class="notice" id="notice">${p.notice}</p>` : ""}${p.error ? html`<p class="error" id="error">${p.error}</p>` : ""}
      <p id="gone" class="muted" ${v.exists ? " hidden" : ""}>
        Nothing of this kind lives under this name now: it is free.
      </p>
      <dl id="summary">
        ${v.summary.map(
          ([k, val]) =>
            html`<dt>${k}</dt>
              <dd>${val}</dd>`,
        )}
      </dl>
      <h2>Holders</h2>
      ${table("holders", HOLDER_COLUMNS, v.holders)}
      <h2>Waiters</h2>
      ${table("waiters", WAITER_COLUMNS, v.waiters)} ${unlockForm(p)}`,
  };
}

function table(id: string, columns: readonly string[], rows: readonly (readonly string[])[]) {
  return html`<table>
    <thead>
      <tr>
        ${columns.map((c) => html`<th>${c}</th>`)}
      </tr>
    </thead>
    <tbody id="${id}">
      ${rows.map(
        (r) =>
          html`<tr>
            ${r.map((cell) => html`<td>${cell}</td>`)}
          </tr>`,
      )}
    </tbody>
  </table>`;
}

function unlockForm(p: { name: string; kind: string; unlock: "form" | "login" | "none" }) {
  if (p.unlock === "none") return "";
  if (p.unlock === "login")
    return html`<p class="muted"><a href="/login">Log in</a> to force-unlock.</p>`;
  return html`<details class="danger" id="force-unlock">
    <summary>Force unlock…</summary>
    <p>
      Deletes every hold on <strong>${p.name}</strong>, whoever holds it, and hands it to the first
      waiter. The holder finds out only at its next renewal, so two parties may briefly both believe
      they hold it: use this only for a holder that is gone. Type the name to confirm.
    </p>
    <form method="post" action="/api/force-unlock">
      <input type="hidden" name="name" value="${p.name}" /><input
        type="hidden"
        name="kind"
        value="${p.kind}"
      />
      <input
        type="text"
        name="confirm"
        autocomplete="off"
        placeholder="type the name to confirm"
        aria-label="type the name to confirm"
        required
      />
      <button type="submit" class="danger">Force unlock</button>
    </form>
  </details>`;
}
