import type { ClientContext } from "../client-context.ts";
import { maskId } from "../ids.ts";
import { keptOrGivenBack } from "./renewal.ts";

/** A grant an acquire has in hand, about to return it to its caller. */
export interface CompletedGrant {
  /** What events call the resource: its name, or a multi-lock's label. */
  readonly name: string;
  /** The unmasked owner (or waiter, or token) id: events only ever see it masked. */
  readonly owner: string;
  readonly fence: number;
  readonly reentrant: boolean;
  readonly waitedMs: number;
  readonly attempts: number;
  /**
   * A new leased hold: its keeper is started before the caller sees it, and when the keeper
   * cannot take it the hold is given back at once (not after a lease) and the acquire fails.
   */
  readonly keeper?:
    { readonly start: () => Promise<void>; readonly giveBack: () => Promise<void> } | undefined;
}

/**
 * The last steps of every granting acquire, the same for each primitive: keep the hold (or give it
 * back), then tell the client's listeners with an `acquired` event.
 * @throws KeeperError when the keeper could not take the hold.
 */
export async function completeGrant(ctx: ClientContext, grant: CompletedGrant): Promise<void> {
  const { keeper } = grant;
  if (keeper) await keptOrGivenBack(grant.name, keeper.start, keeper.giveBack);
  ctx.emit({
    type: "acquired",
    name: grant.name,
    owner: maskId(grant.owner),
    fence: grant.fence,
    reentrant: grant.reentrant,
    waitedMs: Math.round(grant.waitedMs),
    attempts: grant.attempts,
  });
}
