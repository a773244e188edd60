/**
 * Redis Cluster's key slots, for the keys that must share a slot without sharing a name's tag
 * (the restart quarantine's per-slot sentinel). CRC16/XMODEM of the hash tag, mod 16384, as in
 * the cluster specification.
 */
export const CLUSTER_SLOTS = 16_384;

const TABLE = (() => {
  const table = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let crc = i << 8;
    for (let bit = 0; bit < 8; bit++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    table[i] = crc;
  }
  return table;
})();

export function crc16(text: string): number {
  let crc = 0;
  for (const byte of new TextEncoder().encode(text))
    crc = ((crc << 8) & 0xffff) ^ TABLE[((crc >> 8) ^ byte) & 0xff]!;
  return crc;
}

/** The slot of a key whose hash tag (or whole key, when it has none) is `tag`. */
export function slotOf(tag: string): number {
  return crc16(tag) % CLUSTER_SLOTS;
}

let canonical: string[] | undefined;

/**
 * A short tag that hashes to `slot`: the first decimal number that does. Built once for every
 * slot (about 170 000 CRCs of a few bytes), only by clients that use per-slot keys.
 */
export function tagForSlot(slot: number): string {
  if (canonical === undefined) {
    const found: string[] = new Array<string>(CLUSTER_SLOTS);
    let missing = CLUSTER_SLOTS;
    for (let n = 0; missing > 0; n++) {
      const s = slotOf(String(n));
      if (found[s] === undefined) {
        found[s] = String(n);
        missing--;
      }
    }
    canonical = found;
  }
  return canonical[slot]!;
}

/**
 * The slot of a whole key, as Redis Cluster computes it: the part between the first `{` and the
 * next `}` when it is not empty (the hash tag), else the whole key.
 */
export function slotOfKey(key: string): number {
  const open = key.indexOf("{");
  if (open >= 0) {
    const close = key.indexOf("}", open + 1);
    if (close > open + 1) return slotOf(key.slice(open + 1, close));
  }
  return slotOf(key);
}
