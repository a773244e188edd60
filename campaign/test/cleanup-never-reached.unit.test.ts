import { describe, expect, it } from "vitest";
import type { AdversaryHistory, Execution, Intent } from "../src/adversary/history.ts";
import { cleanupNeverReached } from "../src/adversary/oracle/semaphore-checks.ts";

// An unleased Semaphore acquire left in doubt keeps its permits only when its undo (abandon)
// never reached the server while the operation's record lived (docs/guarantees.md, Limits).

const intent: Intent = {
  id: 39,
  actor: "S0",
  kind: "sem-acquire",
  resource: "{s}:sem",
  owner: "S0-1",
  startedAt: 0,
  endedAt: 4_899,
  outcome: "OUTCOME_UNKNOWN",
  fence: null,
  permits: 2,
  holdId: null,
};

const run = (fields: Partial<Execution> & Pick<Execution, "seq" | "script">): Execution => ({
  intent: 39,
  command: "EVALSHA",
  resource: "{s}:sem",
  opId: "op1",
  copy: "normal",
  seen: false,
  sentAt: 0,
  doneAt: 0,
  serverMs: 0,
  reply: null,
  error: null,
  state: { kind: "semaphore", available: 1, total: 3, reserved: 0 },
  ...fields,
});

const acquire = run({
  seq: 1,
  script: "semaphore/acquire",
  deadline: 501,
  queuedAt: 0,
  sentAt: 401,
  serverMs: 404,
  reply: [1],
});

const history = (abandon: Execution, margin: number | null = 5_080): AdversaryHistory => ({
  seed: 1,
  config: "congested/rest",
  faults: true,
  executions: [acquire, abandon],
  intents: [intent],
  beliefs: [],
  samples: [],
  final: {},
  totals: {},
  ...(margin === null ? {} : { recordMarginMs: margin }),
});

const abandon = (fields: Partial<Execution>) =>
  run({ seq: 2, script: "semaphore/abandon", reply: [0, 1], ...fields });

describe("an acquire's cleanup that never reached the server in time", () => {
  it("a cleanup that failed without a reply never reached it", () => {
    expect(cleanupNeverReached(history(abandon({ reply: null, error: "dropped" })), intent)).toBe(
      true,
    );
  });

  it("a cleanup handed over before the record expired (501 + 5 080) and run after it, held back by the world, never reached it in time", () => {
    expect(
      cleanupNeverReached(
        history(abandon({ queuedAt: 4_899, sentAt: 5_614, serverMs: 5_618 })),
        intent,
      ),
    ).toBe(true);
  });

  it("a cleanup the client itself sent after the record expired is not excused", () => {
    expect(
      cleanupNeverReached(
        history(abandon({ queuedAt: 5_600, sentAt: 5_614, serverMs: 5_618 })),
        intent,
      ),
    ).toBe(false);
  });

  it("a cleanup that ran while the record lived reached it (whatever it answered)", () => {
    expect(
      cleanupNeverReached(
        history(abandon({ queuedAt: 4_899, sentAt: 4_900, serverMs: 4_903 })),
        intent,
      ),
    ).toBe(false);
  });

  it("without the record margin or queue time in the history, only a failed cleanup counts", () => {
    expect(
      cleanupNeverReached(
        history(abandon({ queuedAt: 4_899, sentAt: 5_614, serverMs: 5_618 }), null),
        intent,
      ),
    ).toBe(false);
    expect(cleanupNeverReached(history(abandon({ sentAt: 5_614, serverMs: 5_618 })), intent)).toBe(
      false,
    );
  });
});
