import { readFileSync } from "node:fs";
import { checkAdversaryHistory, formatAdversaryReport } from "./adversary/oracle/check.ts";
import type { AdversaryHistory } from "./adversary/history.ts";
import { checkHistory } from "./checker/check.ts";
import { formatReport } from "./checker/report.ts";
import type { History } from "./history/types.ts";

// `pnpm --filter @edgelock/campaign recheck <history.json>`: checks a history a failed run dumped,
// a fault campaign's or an adversarial run's (told apart by its execution log).
const file = process.argv[2];
if (file === undefined) throw new Error("usage: recheck <history.json>");
const parsed = JSON.parse(readFileSync(file, "utf8")) as History | AdversaryHistory;
if ("executions" in parsed) {
  const result = checkAdversaryHistory(parsed);
  console.log(formatAdversaryReport(parsed, result, 10));
  if (result.violations.length > 0) process.exitCode = 1;
} else {
  // A history dumped before lease probes were taken has none.
  const result = checkHistory({ ...parsed, leaseProbes: parsed.leaseProbes ?? [] });
  console.log(formatReport(result, parsed.seed, 200));
  if (result.violations.length > 0) process.exitCode = 1;
}
