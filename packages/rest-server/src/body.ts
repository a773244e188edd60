/** Thrown when a request body is larger than the configured limit. */
export class BodyTooLargeError extends Error {
  override readonly name = "BodyTooLargeError";
  readonly limitBytes: number;

  constructor(limitBytes: number) {
    super(`ERR max request size exceeded (limit ${limitBytes} bytes)`);
    this.limitBytes = limitBytes;
  }
}

/**
 * Reads a request body as UTF-8 text, stopping as soon as it exceeds `limitBytes` so an oversized
 * (possibly chunked, length-less) upload is never buffered whole.
 */
export async function readBodyText(request: Request, limitBytes: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limitBytes) throw new BodyTooLargeError(limitBytes);
  if (request.body === null) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limitBytes) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLargeError(limitBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
