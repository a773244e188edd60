import type { DurableObjectNamespaceLike } from "../cf-types.ts";
import { KEEPER_PATH_PREFIX, type KeeperTransport } from "@edgelock/core/hand-over";

/**
 * Talks to the `LeaseKeeper` through a Durable Object binding (same account, no public URL).
 * The secret is still sent: the object checks it on every request, whoever calls.
 */
export function bindingTransport(
  namespace: DurableObjectNamespaceLike,
  secret: string,
): KeeperTransport {
  return {
    send(objectName, op, body, signal) {
      const stub = namespace.get(namespace.idFromName(objectName) as never);
      // The host is never resolved: a stub's fetch goes straight to the object.
      return stub.fetch(`https://lease-keeper${KEEPER_PATH_PREFIX}${objectName}/${op}`, {
        method: "POST",
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
        body,
        signal,
      });
    },
  };
}
