import type { Description, Holder, Waiter } from "@edgelock/core";

/** One overview row, as both the server-rendered page and the polling script show it. */
export interface OverviewRow {
  readonly name: string;
  readonly kind: string;
  readonly href: string;
  readonly holders: string;
  readonly lease: string;
  readonly fence: string;
  readonly waiters: string;
  readonly state: string;
}

/** The detail view of one name: rows of cells, already formatted. */
export interface DetailView {
  readonly exists: boolean;
  readonly summary: readonly (readonly [string, string])[];
  readonly holders: readonly (readonly string[])[];
  readonly waiters: readonly (readonly string[])[];
}

export function viewHref(name: string, kind: string): string {
  return `/view?${new URLSearchParams({ name, kind }).toString()}`;
}

export function overviewRow(d: Description): OverviewRow {
  const leases = d.holders.map((h) => h.remainingMs);
  return {
    name: d.name,
    kind: d.kind,
    href: viewHref(d.name, d.kind),
    holders:
      d.holders.length === 0
        ? nobody(d)
        : d.holders.slice(0, 3).map(holderText).join(", ") + more(d.holders.length, 3),
    lease: leases.length === 0 ? "—" : formatMs(Math.min(...leases)),
    fence: d.fence === null ? "—" : String(d.fence),
    waiters:
      d.waiters.length === 0
        ? "none"
        : `${d.waiters.length}: ${d.waiters
            .slice(0, 3)
            .map((w) => w.owner)
            .join(", ")}${more(d.waiters.length, 3)}`,
    state: stateText(d),
  };
}

export function detailView(d: Description | null): DetailView {
  if (d === null) return { exists: false, summary: [], holders: [], waiters: [] };
  return {
    exists: true,
    summary: [
      ["kind", d.kind],
      ["holders", String(d.holders.length)],
      ["waiters", String(d.waiters.length)],
      ["last fence", d.fence === null ? "—" : String(d.fence)],
      ["state", stateText(d)],
    ],
    holders: d.holders.map((h) => [
      h.owner,
      h.mode,
      String(h.count),
      formatMs(h.remainingMs),
      h.fence === null ? "—" : String(h.fence),
      h.claimed ? "yes" : "reserved",
    ]),
    waiters: d.waiters.map((w: Waiter) => [
      String(w.position),
      w.owner,
      String(w.permits),
      formatMs(w.deadlineMs),
    ]),
  };
}

function holderText(h: Holder): string {
  const count = h.count > 1 ? ` ×${h.count}` : "";
  const mode = h.mode === "exclusive" ? "" : ` (${h.mode})`;
  return `${h.owner}${count}${mode}${h.claimed ? "" : " reserved"}`;
}

/** No holder: free, or (semaphores) permits taken without owners, or (latches) nothing to hold. */
function nobody(d: Description): string {
  if (d.permits)
    return d.permits.total > d.permits.available
      ? `${d.permits.total - d.permits.available} permits taken (unowned)`
      : "none";
  return d.count !== null ? "—" : "free";
}

function stateText(d: Description): string {
  if (d.permits) return `${d.permits.available}/${d.permits.total} permits free`;
  if (d.count !== null) return `count ${d.count}`;
  return d.holders.length === 0 ? "free" : "held";
}

function more(total: number, shown: number): string {
  return total > shown ? ` +${total - shown}` : "";
}

/** 850 ms, 12.3 s, 4 min 10 s; -1 means no expiry. */
export function formatMs(ms: number): string {
  if (ms < 0) return "no expiry";
  if (ms < 1_000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.floor((ms % 60_000) / 1_000)} s`;
}
