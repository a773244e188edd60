import { createServer } from "node:net";

/**
 * A TCP port that was free a moment ago: listen on port 0, read the port, close. Another process
 * may take it before the caller binds, so callers retry on a collision.
 */
export function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close((error) => (error ? reject(error) : resolve(port)));
    });
  });
}
