import type { SuiteResults } from "../scenarios/suite.ts";
import { lineChart, type Series } from "./svg.ts";

function series(
  results: SuiteResults,
  value: (r: { metrics: { efficiency: number }; requestsPerCs: number }) => number,
): Series[] {
  const sizes = [...results.sweep.keys()];
  const libraries = results.sweep.get(sizes[0]!)?.map((r) => r.library) ?? [];
  return libraries.map((name) => ({
    name,
    dashed: name.includes("polling"),
    points: sizes.map(
      (n) => [n, value(results.sweep.get(n)!.find((r) => r.library === name)!)] as const,
    ),
  }));
}

/** The two sweep plots: efficiency and requests per critical section against N. */
export function sweepPlots(results: SuiteResults): { efficiency: string; requests: string } {
  const xTicks = [...results.sweep.keys()];
  const req = series(results, (r) => r.requestsPerCs);
  const yMax = Math.min(
    40,
    Math.ceil(Math.max(...req.flatMap((s) => s.points.map(([, v]) => v))) / 2) * 2,
  );
  return {
    efficiency: lineChart({
      title: "Efficiency vs workers (C = 10 ms, R = 20 ms)",
      xLabel: "N workers",
      yLabel: "efficiency = throughput × (C + R)",
      series: series(results, (r) => r.metrics.efficiency),
      xTicks,
      yMax: 1.2,
      yRef: { value: 1, label: "direct hand-off" },
    }),
    requests: lineChart({
      title: "Requests per critical section vs workers",
      xLabel: "N workers",
      yLabel: "requests (HTTP) or commands (TCP) per CS",
      series: req,
      xTicks,
      yMax,
    }),
  };
}
