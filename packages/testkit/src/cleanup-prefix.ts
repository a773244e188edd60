import { createClient } from "redis";

const SCAN_COUNT = "500";

/** SCAN + UNLINK of every key starting with `prefix` (taken literally); resolves the number removed. */
export async function cleanupPrefix(redisUrl: string, prefix: string): Promise<number> {
  const client = createClient({ url: redisUrl });
  client.on("error", () => undefined);
  await client.connect();
  try {
    const match = `${escapeGlob(prefix)}*`;
    let cursor = "0";
    let removed = 0;
    do {
      const reply = (await client.sendCommand([
        "SCAN",
        cursor,
        "MATCH",
        match,
        "COUNT",
        SCAN_COUNT,
      ])) as [string, string[]];
      cursor = String(reply[0]);
      const keys = reply[1];
      if (keys.length > 0) removed += Number(await client.sendCommand(["UNLINK", ...keys]));
    } while (cursor !== "0");
    return removed;
  } finally {
    client.destroy();
  }
}

/** Escapes the glob characters of `MATCH` so the prefix is matched literally. */
export function escapeGlob(text: string): string {
  return text.replace(/[\\*?[\]]/g, (char) => `\\${char}`);
}
