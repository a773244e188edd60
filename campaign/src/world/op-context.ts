import { AsyncLocalStorage } from "node:async_hooks";
import type { HitRecord } from "../history/types.ts";

/** The public call a worker is making, so a failed request can be tied to the call that made it. */
export interface OpContext {
  readonly operation: string;
  readonly hits: HitRecord[];
}

const current = new AsyncLocalStorage<OpContext>();

export const currentOp = (): OpContext | undefined => current.getStore();

export function runOp<T>(
  operation: string,
  fn: () => Promise<T>,
): { context: OpContext; result: Promise<T> } {
  const context: OpContext = { operation, hits: [] };
  return { context, result: current.run(context, fn) };
}
