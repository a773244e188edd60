import type { Description } from "@edgelock/core";

/** 850 ms, 12.3 s, 4 min 10 s; -1 means no expiry. */
export function formatMs(ms: number): string {
  if (ms < 0) return "no expiry";
  if (ms < 1_000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.floor((ms % 60_000) / 1_000)} s`;
}

/** Columns padded to their widest cell. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join("  ");
  return [line(header), ...rows.map(line)].join("\n");
}

function state(d: Description): string {
  if (d.permits) return `${d.permits.available}/${d.permits.total} permits free`;
  if (d.count !== null) return `count ${d.count}`;
  return d.holders.length === 0 ? "free" : "held";
}

/** The overview: one line per name. */
export function formatList(descriptions: readonly Description[]): string {
  if (descriptions.length === 0) return "nothing is held or waited for under this prefix";
  return table(
    ["NAME", "KIND", "HOLDERS", "LEASE LEFT", "WAITERS", "STATE"],
    descriptions.map((d) => [
      d.name,
      d.kind,
      d.holders.map((h) => `${h.owner}${h.count > 1 ? ` x${h.count}` : ""}`).join(",") || "-",
      d.holders.length === 0 ? "-" : formatMs(Math.min(...d.holders.map((h) => h.remainingMs))),
      String(d.waiters.length),
      state(d),
    ]),
  );
}

/** One name in detail. */
export function formatDescription(d: Description): string {
  const out = [`${d.name}  (${d.kind})`, `  state    ${state(d)}`, `  fence    ${d.fence ?? "-"}`];
  out.push(`  holders  ${d.holders.length}`);
  if (d.holders.length > 0) {
    const rows = d.holders.map((h) => [
      h.owner,
      h.mode,
      String(h.count),
      formatMs(h.remainingMs),
      h.fence === null ? "-" : String(h.fence),
      h.claimed ? "yes" : "reserved",
    ]);
    out.push(indent(table(["OWNER", "MODE", "COUNT", "LEASE LEFT", "FENCE", "CLAIMED"], rows)));
  }
  out.push(`  waiters  ${d.waiters.length}`);
  if (d.waiters.length > 0) {
    const rows = d.waiters.map((w) => [
      String(w.position),
      w.owner,
      String(w.permits),
      formatMs(w.deadlineMs),
    ]);
    out.push(indent(table(["#", "OWNER", "PERMITS", "POLL DEADLINE IN"], rows)));
  }
  if (d.truncated) out.push("  (more holders or waiters than shown)");
  return out.join("\n");
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((l) => `    ${l}`)
    .join("\n");
}
