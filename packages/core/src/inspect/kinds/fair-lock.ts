import { fairLockKeys } from "../../keys.ts";
import { lockLayoutInspection } from "./lock-layout.ts";

/** The fair lock: the Lock's layout under its own `:fair:` keys. */
export const fairLockInspection = lockLayoutInspection("fair-lock", fairLockKeys, (client, name) =>
  client.fairLock(name).forceUnlock(),
);
