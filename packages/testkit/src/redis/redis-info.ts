import { connect } from "node:net";

/** The fields of `INFO` that say whether a server is ours and ready. */
export interface RedisReadiness {
  readonly pid: number;
  /** `loading:0`: the data set is loaded and commands are served. */
  readonly loaded: boolean;
}

/**
 * Asks `127.0.0.1:port` for `INFO` over a raw socket (no client library, no reconnects). Resolves
 * `null` when nothing answers or the answer is not a bulk string (e.g. `-LOADING`).
 */
export function queryReadiness(port: number, timeoutMs = 500): Promise<RedisReadiness | null> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: "127.0.0.1" });
    let buffer = Buffer.alloc(0);
    const finish = (value: RedisReadiness | null) => {
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(timeoutMs, () => finish(null));
    socket.once("error", () => finish(null));
    socket.once("close", () => finish(null));
    socket.on("data", (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      const reply = parseBulk(buffer);
      if (reply !== undefined) finish(reply === null ? null : readiness(reply));
    });
    socket.write("INFO\r\n");
  });
}

/** A complete RESP bulk string, `null` for any other reply, `undefined` while incomplete. */
function parseBulk(buffer: Buffer): string | null | undefined {
  const lineEnd = buffer.indexOf("\r\n");
  if (lineEnd < 0) return undefined;
  if (buffer[0] !== 0x24 /* $ */) return null;
  const length = Number(buffer.subarray(1, lineEnd).toString());
  const start = lineEnd + 2;
  if (buffer.length < start + length) return undefined;
  return buffer.subarray(start, start + length).toString();
}

function readiness(info: string): RedisReadiness | null {
  const pid = /^process_id:(\d+)/m.exec(info)?.[1];
  const loading = /^loading:(\d+)/m.exec(info)?.[1];
  if (pid === undefined || loading === undefined) return null;
  return { pid: Number(pid), loaded: loading === "0" };
}
