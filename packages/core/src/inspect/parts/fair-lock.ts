import { fairLockKeys } from "../../keys.ts";
import { lockLayoutPart } from "./lock-layout.ts";

/** The fair lock: the Lock's layout under its own `:fair:` keys. */
export const fairLockPart = lockLayoutPart("fair-lock", fairLockKeys, (client, name) =>
  client.fairLock(name).forceUnlock(),
);
