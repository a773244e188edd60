/**
 * Constant-time string comparison: both sides are hashed to 32 bytes first, so neither the
 * position of the first difference nor the length of the secret shows in the time taken.
 */
export async function safeEqual(a: string, b: string): Promise<boolean> {
  const encoder = new TextEncoder();
  const [x, y] = await Promise.all(
    [a, b].map(
      async (s) => new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(s))),
    ),
  );
  let diff = 0;
  for (let i = 0; i < 32; i++) diff |= (x?.[i] ?? 0) ^ (y?.[i] ?? 0);
  return diff === 0;
}
