import type { History, LatchRoundRecord } from "../history/types.ts";
import { dataLossBetween } from "./excuses.ts";
import { violation, type Violation } from "./violation.ts";

/**
 * Each countDown counts once. Within a round, the counts answered are distinct and below the
 * round's count; applications the answers do not account for (count − final − answers) are at
 * most the calls whose outcome was unknown; and `await()` never reports the latch open before
 * `count` calls had been made. Rounds that a data loss cut short are skipped.
 */
export function checkLatches(history: History): Violation[] {
  const violations: Violation[] = [];
  for (const round of history.latchRounds) {
    if (dataLossBetween(history, round.setSeq, round.endSeq ?? Infinity)) continue;
    violations.push(...checkRound(round));
  }
  for (const wait of history.latchAwaits) {
    const round = history.latchRounds[wait.round];
    if (!round || !wait.opened || dataLossBetween(history, round.setSeq, wait.endSeq)) continue;
    const started = round.calls.filter((c) => c.startSeq < wait.endSeq).length;
    if (started < round.count) {
      violations.push(
        violation(
          "latch-early-open",
          `${round.latch} round ${round.id}: await() saw it open after ${started} of ${round.count} countDown calls`,
        ),
      );
    }
  }
  return violations;
}

function checkRound(round: LatchRoundRecord): Violation[] {
  const out: Violation[] = [];
  const where = `${round.latch} round ${round.id} (count ${round.count})`;
  const answers = round.calls.filter((c) => c.outcome === "counted").map((c) => c.remaining ?? 0);
  const positive = answers.filter((r) => r > 0);
  const distinct = new Set(positive);
  if (distinct.size !== positive.length) {
    out.push(
      violation(
        "latch-double-count",
        `${where}: the same remaining count was answered twice (${positive.join(",")})`,
      ),
    );
  }
  if (positive.some((r) => r >= round.count))
    out.push(
      violation(
        "latch-double-count",
        `${where}: an answer at or above the count (${positive.join(",")})`,
      ),
    );
  if (round.finalCount === undefined) return out;
  const unsure = round.calls.filter((c) => c.outcome !== "counted").length;
  const zero = round.finalCount === 0 && answers.includes(0) ? 1 : 0;
  const unaccounted = round.count - round.finalCount - distinct.size - zero;
  if (unaccounted > unsure) {
    out.push(
      violation(
        "latch-double-count",
        `${where}: ${round.count - round.finalCount} applied, answers account for ${distinct.size + zero}, only ${unsure} call(s) had an unknown outcome`,
      ),
    );
  }
  if (positive.some((r) => r < round.finalCount!))
    out.push(
      violation(
        "latch-double-count",
        `${where}: an answer below the final count ${round.finalCount}`,
      ),
    );
  return out;
}
