import { html } from "hono/html";
import type { OverviewRow } from "../present.ts";
import { OVERVIEW_SCRIPT } from "./scripts.ts";

export const OVERVIEW_COLUMNS = ["kind", "holders", "lease", "fence", "waiters", "state"] as const;

/** Every name under the prefix; the script re-renders the rows from `/api/overview`. */
export function overviewBody(rows: readonly OverviewRow[], truncated: boolean) {
  return {
    script: OVERVIEW_SCRIPT,
    body: html`<table id="names">
        <thead>
          <tr>
            <th>name</th>
            <th>kind</th>
            <th>holders</th>
            <th>lease left</th>
            <th>fence</th>
            <th>waiters</th>
            <th>state</th>
          </tr>
        </thead>
        <tbody id="rows">
          ${rows.map(
            (r) =>
              html`<tr data-name="${r.name}" data-kind="${r.kind}">
                <td><a href="${r.href}">${r.name}</a></td>
                ${OVERVIEW_COLUMNS.map((c) => html`<td class="${c}">${r[c]}</td>`)}
              </tr>`,
          )}
        </tbody>
      </table>
      <p id="empty" class="muted" ${rows.length > 0 ? " hidden" : ""}>
        Nothing is held or waited for under this prefix.
      </p>
      <p id="truncated" class="muted" ${truncated ? "" : " hidden"}>
        More names than shown: narrow with <code>?match=glob</code>.
      </p>`,
  };
}
