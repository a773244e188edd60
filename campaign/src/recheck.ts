import { readFileSync } from "node:fs";
import { checkHistory } from "./checker/check.ts";
import { formatReport } from "./checker/report.ts";
import type { History } from "./history/types.ts";

// `pnpm --filter @edgelock/campaign recheck <history.json>`: checks a history a failed run dumped.
const file = process.argv[2];
if (file === undefined) throw new Error("usage: recheck <history.json>");
const history = JSON.parse(readFileSync(file, "utf8")) as History;
const result = checkHistory(history);
console.log(formatReport(result, history.seed, 200));
if (result.violations.length > 0) process.exitCode = 1;
