// Prints the model's figures (mean of 3 seeds) for docs/performance.md.
import { runModel, type ModelRun } from "./main.ts";

const rows: [string, Omit<ModelRun, "push">][] = [
  ["N=8, R=20", { workers: 8, rttMs: 20 }],
  ["N=8, R=20, irregular", { workers: 8, rttMs: 20, irregular: true }],
  ["N=8, R=20 + 0–10 jitter", { workers: 8, rttMs: 20, jitterMs: 10 }],
  ["N=8, R=0", { workers: 8, rttMs: 0 }],
  ...[1, 2, 4, 16, 32].map(
    (n) =>
      [
        `N=${n}, R=20`,
        { workers: n, rttMs: 20, sections: Math.max(5, Math.min(20, Math.ceil(160 / n))) },
      ] as [string, Omit<ModelRun, "push">],
  ),
];
console.log("| scenario | push | polling |\n| --- | ---: | ---: |");
for (const [label, run] of rows) {
  const cell = (push: boolean) => {
    let e = 0,
      q = 0;
    for (const seed of [1, 2, 3]) {
      const r = runModel({ ...run, push, seed });
      e += r.metrics.efficiency / 3;
      q += r.requestsPerCs / 3;
    }
    return `${e.toFixed(2)} @ ${q.toFixed(2)}`;
  };
  console.log(`| ${label} | ${cell(true)} | ${cell(false)} |`);
}
