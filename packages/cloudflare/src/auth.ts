/**
 * Checks `Authorization: Bearer <secret>` in constant time: both sides are hashed to 32 bytes
 * first, so neither the length nor a common prefix of the secret leaks through timing.
 */
export async function hasBearer(request: Request, secret: string): Promise<boolean> {
  const header = request.headers.get("authorization") ?? "";
  const given = header.startsWith("Bearer ") ? header.slice("Bearer ".length) : "";
  const [a, b] = await Promise.all([sha256(given), sha256(secret)]);
  let diff = given.length === 0 ? 1 : 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

export function unauthorized(): Response {
  return Response.json(
    { error: "unauthorized: send Authorization: Bearer <EDGELOCK_KEEPER_SECRET>" },
    { status: 401, headers: { "www-authenticate": 'Bearer realm="edgelock-lease-keeper"' } },
  );
}
