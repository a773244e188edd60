/**
 * The `data:` payloads of a Server-Sent-Events body, one per event (multi-line data joined by
 * `\n`, comments and other fields skipped). Only what Upstash's `/subscribe` sends is needed, but
 * the framing follows the spec so a proxy that re-chunks or adds comments cannot confuse it.
 */
export async function* sseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = "";
  let data: string[] = [];
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.search(/\r?\n/)) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(buffer[end] === "\r" ? end + 2 : end + 1);
        if (line === "") {
          if (data.length > 0) yield data.join("\n");
          data = [];
        } else if (line.startsWith("data:")) {
          data.push(line.slice(line.startsWith("data: ") ? 6 : 5));
        }
      }
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}
