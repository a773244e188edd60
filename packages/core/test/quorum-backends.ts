import { TransportError, type Backend } from "../src/index.ts";

// Backends that misbehave on cue, for quorum tests on every runtime (workerd included: no
// Node-only imports here).

/**
 * A backend that answers only after `ms` more, whatever its caller's timeout says: a process
 * paused (GC, a starved event loop) between sending a request and handling the reply.
 */
export function slowBackend(inner: Backend, ms: number): Backend {
  return {
    kind: inner.kind,
    async command(args, signal) {
      const reply = await inner.command(args, signal);
      await new Promise((r) => setTimeout(r, ms));
      return reply;
    },
  };
}

/** A backend that can be switched off: while down, every request fails before it runs. */
export function switchableBackend(inner: Backend): {
  backend: Backend;
  setDown(down: boolean): void;
} {
  let down = false;
  return {
    backend: {
      kind: inner.kind,
      command(args, signal) {
        if (down)
          return Promise.reject(
            new TransportError("connection refused (database down in the test)", {
              ambiguous: false,
            }),
          );
        return inner.command(args, signal);
      },
    },
    setDown: (d) => void (down = d),
  };
}
