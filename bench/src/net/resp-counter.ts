/**
 * Counts the commands in a client-to-Redis byte stream: each top-level RESP array is one command
 * (what Upstash would bill), and so is each inline command line. Incremental: chunks may split a
 * command anywhere.
 */
export class RespCounter {
  count = 0;
  #buffer: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): void {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    let offset = 0;
    for (;;) {
      const end = commandEnd(this.#buffer, offset);
      if (end < 0) break;
      this.count++;
      offset = end;
    }
    this.#buffer = this.#buffer.subarray(offset);
  }
}

/** Where the command starting at `offset` ends, or -1 when the buffer does not hold all of it. */
function commandEnd(buf: Buffer, offset: number): number {
  if (offset >= buf.length) return -1;
  const line = buf.indexOf("\r\n", offset);
  if (line < 0) return -1;
  if (buf[offset] !== 0x2a /* * */) return line + 2; // inline command
  const items = Number(buf.toString("latin1", offset + 1, line));
  let at = line + 2;
  for (let i = 0; i < items; i++) {
    const header = buf.indexOf("\r\n", at);
    if (header < 0) return -1;
    if (buf[at] !== 0x24 /* $ */) {
      at = header + 2; // a simple value inside the array (not sent by clients, but harmless)
      continue;
    }
    const length = Number(buf.toString("latin1", at + 1, header));
    at = header + 2 + Math.max(length, 0) + 2;
    if (at > buf.length) return -1;
  }
  return at;
}
