/**
 * SCAN over a whole Redis Cluster, one master after another, behind one cursor: the node's own
 * cursor times `NODE_SPAN` plus the node's index in address order. "0" starts at the first
 * master and, as from a single Redis, means the iteration is over. A key that migrates to another
 * master during the iteration may be missed or returned twice (SCAN's own guarantee is per node).
 */
const NODE_SPAN = 1024n;

export interface ScanStep {
  /** Index, in `addresses` order, of the master to ask. */
  readonly node: number;
  /** The cursor to send that master. */
  readonly cursor: string;
}

/** Which master and which of its cursors the cluster-wide `cursor` stands for; undefined if invalid. */
export function scanStep(cursor: string, masters: number): ScanStep | undefined {
  if (!/^\d+$/.test(cursor)) return undefined;
  const value = BigInt(cursor);
  const node = Number(value % NODE_SPAN);
  return node < masters ? { node, cursor: String(value / NODE_SPAN) } : undefined;
}

/** The cluster-wide cursor after `node` answered `next`. */
export function nextScanCursor(node: number, next: string, masters: number): string {
  if (next !== "0") return String(BigInt(next) * NODE_SPAN + BigInt(node));
  return node + 1 < masters ? String(node + 1) : "0";
}

/** A stable order of the masters (by address), so one iteration visits each once. */
export function byAddress<T extends { readonly address: string }>(masters: readonly T[]): T[] {
  return [...masters].sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
}
