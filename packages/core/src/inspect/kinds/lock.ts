import { lockKeys } from "../../keys.ts";
import { lockLayoutInspection } from "./lock-layout.ts";

/** The reentrant Lock (also what a multi-lock holds: it takes the Lock's own keys). */
export const lockInspection = lockLayoutInspection("lock", lockKeys, (client, name) =>
  client.lock(name).forceUnlock(),
);
