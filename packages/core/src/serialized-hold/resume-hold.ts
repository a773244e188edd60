import type { ClientContext } from "../client-context.ts";
import { sharedOwner } from "../ids.ts";
import { InvalidArgumentError } from "../errors.ts";
import { FairLock } from "../fair-lock/fair-lock.ts";
import { Lock } from "../lock/lock.ts";
import { MultiLock } from "../multi-lock/multi-lock.ts";
import { PermitExpirableSemaphore } from "../permit-semaphore/permit-semaphore.ts";
import { ReadWriteLock } from "../read-write-lock/read-write-lock.ts";
import { Semaphore } from "../semaphore/semaphore.ts";
import { parseSerializedHold } from "./parse.ts";
import type { HeldOf, ResumedHold, SerializedHold } from "./types.ts";

/**
 * `client.resumeHold()`: takes over a hold of any kind serialised by its `toJSON()`, through the
 * same code as the handle's own `resume()` (validation, and a lease trusted only from its first
 * confirmed renewal). A quorum-lock hold spans several databases, so it resumes on its quorum
 * lock (`quorumLock(clients, name).resume(hold)`), not on one client.
 */
export function resumeHold<S extends SerializedHold>(ctx: ClientContext, hold: S): HeldOf<S> {
  return resumeAny(ctx, hold) as HeldOf<S>;
}

function resumeAny(ctx: ClientContext, value: SerializedHold): ResumedHold {
  const h = parseSerializedHold(value, "hold");
  if (h.kind === "quorum-lock")
    throw new InvalidArgumentError(
      "hold.kind",
      "is a quorum-lock hold, which spans several databases: resume it with quorumLock(clients, name).resume(hold)",
    );
  if (h.prefix !== ctx.prefix)
    throw new InvalidArgumentError(
      "hold.prefix",
      `was made under prefix "${h.prefix}", but this client's prefix is "${ctx.prefix}"`,
    );
  switch (h.kind) {
    case "lock":
      return new Lock(ctx, h.name, sharedOwner(h.owner)).resume(h);
    case "fair-lock":
      return new FairLock(ctx, h.name, sharedOwner(h.owner)).resume(h);
    case "read-write-lock": {
      const rw = new ReadWriteLock(ctx, h.name, sharedOwner(h.owner));
      return (h.side === "read" ? rw.read : rw.write).resume(h);
    }
    case "multi-lock": {
      const multi = new MultiLock(ctx, h.names, sharedOwner(h.owner));
      if (multi.names.length !== h.names.length || multi.names.some((n, i) => n !== h.names[i]))
        throw new InvalidArgumentError(
          "hold.names",
          "are not in the order a multi-lock takes them (not what toJSON() wrote)",
        );
      return multi.resume(h);
    }
    case "semaphore":
      return new Semaphore(ctx, h.name).resume(h);
    case "permit-expirable-semaphore":
      return new PermitExpirableSemaphore(ctx, h.name).resume(h);
  }
}
