import type { Step } from "./client.ts";
import type { ClientId } from "./server.ts";

/** Finding 1: B tries while A holds; a copy of B's busy try may run after A released. */
export const BUSY_TRY: Readonly<Record<ClientId, readonly Step[]>> = {
  A: [{ kind: "acquire" }, { kind: "release" }],
  B: [{ kind: "acquire" }, { kind: "acquire", unlessHeld: true }],
};

/** Finding 2: A renews to a shorter lease, then a longer one; B tries to take the lock. */
export const RENEWALS: Readonly<Record<ClientId, readonly Step[]>> = {
  A: [{ kind: "acquire" }, { kind: "extend", ms: 1 }, { kind: "extend", ms: 4 }],
  B: [{ kind: "acquire" }],
};

/**
 * Two clients × three calls. A holds and renews (a shorter lease, then a longer one: finding 2);
 * B tries twice while A holds, and releases what it got (finding 1: a busy try's late copy).
 */
export const TWO_BY_THREE: Readonly<Record<ClientId, readonly Step[]>> = {
  A: [{ kind: "acquire" }, { kind: "extend", ms: 1 }, { kind: "extend", ms: 4 }],
  B: [{ kind: "acquire" }, { kind: "acquire", unlessHeld: true }, { kind: "release" }],
};
