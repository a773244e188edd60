import type { KeeperOp } from "./protocol.ts";

/** Carries one keeper request to the object named `objectName`; the secret is the transport's. */
export interface KeeperTransport {
  send(objectName: string, op: KeeperOp, body: string, signal: AbortSignal): Promise<Response>;
}
