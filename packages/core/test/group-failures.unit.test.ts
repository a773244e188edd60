import { describe, expect, it } from "vitest";
import { AbortedError, BackendError, OutcomeUnknownError, TransportError } from "../src/index.ts";
import { groupFailure } from "../src/multi-lock/group-failures.ts";

// A multi-lock's groups run in parallel: when several fail, one typed error carries them all.
describe("groupFailure", () => {
  const refused = (n: number) =>
    new BackendError(`extend group ${n}: connection refused`, {
      cause: new TransportError("connection refused", { ambiguous: false }),
    });

  it("one failure is thrown as it is", () => {
    const only = refused(1);
    expect(groupFailure([only])).toBe(only);
  });

  it("several that did not apply: a BackendError carrying every one", () => {
    const [a, b] = [refused(1), refused(2)];
    const error = groupFailure([a, b]) as BackendError;
    expect(error).toBeInstanceOf(BackendError);
    expect(error.message).toBe(`${a.message} (1 more group(s) failed too)`);
    expect(error.cause).toBeInstanceOf(AggregateError);
    expect((error.cause as AggregateError).errors).toEqual([a, b]);
  });

  it("any unknown outcome makes the whole unknown, with every failure as its cause", () => {
    const inDoubt = new TransportError("response lost", { ambiguous: true });
    const unknown = new OutcomeUnknownError("extend", 3, inDoubt);
    const other = refused(1);
    const error = groupFailure([other, unknown]) as OutcomeUnknownError;
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect([error.operation, error.attempts]).toEqual(["extend", 3]);
    expect((error.cause as AggregateError).errors).toEqual([other, inDoubt]);
  });

  it("the caller's abort wins", () => {
    const aborted = new AbortedError("acquire", "stop");
    const unknown = new OutcomeUnknownError("acquire", 1, new Error("lost"));
    expect(groupFailure([unknown, aborted])).toBe(aborted);
  });
});
