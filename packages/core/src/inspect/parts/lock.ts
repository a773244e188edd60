import { lockKeys } from "../../keys.ts";
import { lockLayoutPart } from "./lock-layout.ts";

/** The reentrant Lock (also what a multi-lock holds: it takes the Lock's own keys). */
export const lockPart = lockLayoutPart("lock", lockKeys, (client, name) =>
  client.lock(name).forceUnlock(),
);
