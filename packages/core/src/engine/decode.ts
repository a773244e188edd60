import { BackendError } from "../errors.ts";

/** Scripts answer fixed tuples of integers; anything else is a protocol fault, never a guess. */
export function decodeTuple(operation: string, reply: unknown, length: number): number[] {
  if (!Array.isArray(reply) || reply.length !== length) {
    throw new BackendError(`${operation}: unexpected reply ${JSON.stringify(reply)}`);
  }
  return reply.map((value) => {
    const n = typeof value === "string" && /^-?\d+$/.test(value) ? Number(value) : value;
    if (typeof n !== "number" || !Number.isFinite(n)) {
      throw new BackendError(`${operation}: unexpected reply ${JSON.stringify(reply)}`);
    }
    return n;
  });
}
