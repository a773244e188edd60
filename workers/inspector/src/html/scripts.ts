/**
 * The page's only scripts: poll a JSON endpoint every `data-poll` ms and re-render rows with
 * `textContent` (never innerHTML: names and owners are data, not markup). Plain ES2017, no build.
 */

const POLL = `
function poll(url, render) {
  var status = document.getElementById("status");
  var every = Number(document.body.dataset.poll) || 1000;
  async function tick() {
    try {
      var response = await fetch(url, { credentials: "same-origin", headers: { accept: "application/json" } });
      if (!response.ok) throw new Error("HTTP " + response.status);
      render(await response.json());
      status.textContent = "live · " + new Date().toLocaleTimeString();
      status.className = "ok";
    } catch (error) {
      status.textContent = "connection lost, retrying (" + error.message + ")";
      status.className = "err";
    }
    setTimeout(tick, every);
  }
  setTimeout(tick, every);
}
function cell(text, className) {
  var td = document.createElement("td");
  td.textContent = text;
  if (className) td.className = className;
  return td;
}
function rows(tbody, list) {
  tbody.replaceChildren.apply(tbody, list.map(function (cells) {
    var tr = document.createElement("tr");
    cells.forEach(function (c) { tr.append(cell(c)); });
    return tr;
  }));
}
`;

export const OVERVIEW_SCRIPT = `${POLL}
poll("/api/overview" + location.search, function (data) {
  var tbody = document.getElementById("rows");
  tbody.replaceChildren.apply(tbody, data.rows.map(function (r) {
    var tr = document.createElement("tr");
    tr.dataset.name = r.name;
    tr.dataset.kind = r.kind;
    var link = document.createElement("a");
    link.href = r.href;
    link.textContent = r.name;
    var first = document.createElement("td");
    first.append(link);
    tr.append(first);
    ["kind", "holders", "lease", "fence", "waiters", "state"].forEach(function (c) { tr.append(cell(r[c], c)); });
    return tr;
  }));
  document.getElementById("empty").hidden = data.rows.length > 0;
  document.getElementById("truncated").hidden = !data.truncated;
});
`;

export const DETAIL_SCRIPT = `${POLL}
var title = document.getElementById("title");
poll("/api/view?" + new URLSearchParams({ name: title.dataset.name, kind: title.dataset.kind }), function (view) {
  document.getElementById("gone").hidden = view.exists;
  var summary = document.getElementById("summary");
  summary.replaceChildren.apply(summary, view.summary.flatMap(function (pair) {
    var dt = document.createElement("dt");
    dt.textContent = pair[0];
    var dd = document.createElement("dd");
    dd.textContent = pair[1];
    return [dt, dd];
  }));
  rows(document.getElementById("holders"), view.holders);
  rows(document.getElementById("waiters"), view.waiters);
});
`;
