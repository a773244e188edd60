import { describe, expect, it } from "vitest";
import { explore } from "../src/protocol-model/explore.ts";
import { NEW_PROTOCOL, OLD_PROTOCOL } from "../src/protocol-model/rules.ts";
import { BUSY_TRY, RENEWALS, TWO_BY_THREE } from "../src/protocol-model/scenarios.ts";

// The abstract protocol, exhaustively: every interleaving of two clients × up to three calls,
// with late (any order), duplicated and lost copies, resends, give-ups and server time passing.
// The new protocol's full searches take minutes (about 0.5–1 M states each): EDGELOCK_MODEL_FULL=1.
const full = process.env["EDGELOCK_MODEL_FULL"] === "1";

describe("protocol model, exhaustive", () => {
  for (const [name, scenario] of Object.entries({ BUSY_TRY, RENEWALS, TWO_BY_THREE })) {
    it(`finds a counterexample in the old protocol (c6a5b43): ${name}`, () => {
      const result = explore(OLD_PROTOCOL, scenario);
      console.log(
        `old ${name}: ${result.states} states; ${result.counterexample?.violation}\n  ${result.counterexample?.trace.join("\n  ")}`,
      );
      expect(result.counterexample).not.toBeNull();
    });
  }

  it("finds none in the new protocol: RENEWALS (finding 2)", { timeout: 300_000 }, () => {
    const result = explore(NEW_PROTOCOL, RENEWALS);
    expect(result.counterexample?.trace ?? null).toBeNull();
  });

  it.runIf(full)(
    "finds none in the new protocol: BUSY_TRY (finding 1)",
    { timeout: 600_000 },
    () => {
      const result = explore(NEW_PROTOCOL, BUSY_TRY);
      expect(result.counterexample?.trace ?? null).toBeNull();
    },
  );
});
