import type { ClientContext } from "../client-context.ts";
import { evalScript } from "../engine/eval-script.ts";
import { BackendError, OutcomeUnknownError } from "../errors.ts";
import { maskId } from "../ids.ts";
import type { KindInspection, View } from "./kinds/kind-inspection.ts";
import { encodeOp, num, Reads } from "./reads.ts";
import { describeScript } from "./scripts.generated.ts";
import type { Description } from "./types.ts";

/** What one `describe.lua` call read for one part. */
export interface PartReads {
  readonly part: KindInspection;
  readonly reads: Reads;
  /** Whether any of the part's primary keys exists. */
  readonly present: boolean;
}

/**
 * Reads every key of `parts` for `name` in one request: all keys of a name share its hash tag,
 * so one read-only script sees a consistent snapshot of every kind at once.
 */
export async function readParts(
  ctx: ClientContext,
  name: string,
  parts: readonly KindInspection[],
  limit: number,
  signal?: AbortSignal,
): Promise<PartReads[]> {
  const plans = parts.map((part) => part.plan(ctx.prefix, name));
  const keys: string[] = [];
  const ops: string[] = [];
  for (const plan of plans) {
    const offset = keys.length;
    for (const spec of plan) {
      keys.push(spec.key);
      ops.push(encodeOp(spec.op, offset));
    }
  }
  const call = {
    operation: `describe "${name}"`,
    keys,
    args: [limit, ...ops],
    retrySafe: true,
    readOnly: true,
    signal,
  };
  const { reply } = await evalScript(ctx.backend, describeScript, call, ctx.policy, ctx.emit).catch(
    (error: unknown) => {
      // A read changes nothing: "outcome unknown" only means no answer came in time.
      if (error instanceof OutcomeUnknownError)
        throw new BackendError(`describe "${name}": no answer after ${error.attempts} attempts`, {
          cause: error,
        });
      throw error;
    },
  );
  if (!Array.isArray(reply) || reply.length !== keys.length + 1) {
    throw new BackendError(`describe "${name}": unexpected reply ${JSON.stringify(reply)}`);
  }
  const now = num(reply[0]);
  let offset = 1;
  return parts.map((part, i) => {
    const plan = plans[i] ?? [];
    const reads = new Reads(reply.slice(offset, offset + plan.length), plan, now);
    offset += plan.length;
    return { part, reads, present: part.primary.some((k) => reads.exists(k)) };
  });
}

export function makeView(revealOwners: boolean, limit: number): View {
  return { owner: revealOwners ? (id) => id : maskId, limit };
}

export function toDescription(name: string, read: PartReads, view: View): Description {
  const d = read.part.decode(read.reads, view);
  return {
    name,
    kind: read.part.kind,
    ...d,
    holders: d.holders.slice(0, view.limit),
    waiters: d.waiters.slice(0, view.limit),
  };
}
