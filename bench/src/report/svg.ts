/** One line of a chart. */
export interface Series {
  readonly name: string;
  readonly points: readonly (readonly [number, number])[];
  /** Drawn dashed (e.g. a library's second mode). */
  readonly dashed?: boolean;
}

export interface ChartOptions {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly series: readonly Series[];
  /** x values to tick (plotted on a log2 axis). */
  readonly xTicks: readonly number[];
  readonly yMax: number;
  /** A horizontal reference line, e.g. efficiency 1.0. */
  readonly yRef?: { readonly value: number; readonly label: string };
}

const PALETTE = ["#d62728", "#ff7f0e", "#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#7f7f7f"];
const W = 720;
const H = 420;
const M = { left: 60, right: 210, top: 40, bottom: 50 };

/** A line chart as a standalone SVG: log2 x axis, linear y axis, legend on the right. */
export function lineChart(o: ChartOptions): string {
  const plotW = W - M.left - M.right;
  const plotH = H - M.top - M.bottom;
  const xs = o.xTicks.map(Math.log2);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const x = (v: number) =>
    M.left + (x1 === x0 ? plotW / 2 : ((Math.log2(v) - x0) / (x1 - x0)) * plotW);
  const y = (v: number) => M.top + plotH - (Math.min(v, o.yMax) / o.yMax) * plotH;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${M.left}" y="22" font-size="15" font-weight="bold">${esc(o.title)}</text>`,
  ];
  const step = niceStep(o.yMax / 6);
  for (let v = 0; v <= o.yMax + 1e-9; v += step) {
    out.push(
      `<line x1="${M.left}" x2="${M.left + plotW}" y1="${y(v)}" y2="${y(v)}" stroke="#e5e5e5"/>`,
    );
    out.push(`<text x="${M.left - 8}" y="${y(v) + 4}" text-anchor="end">${fmt(v)}</text>`);
  }
  for (const t of o.xTicks) {
    out.push(
      `<line x1="${x(t)}" x2="${x(t)}" y1="${M.top}" y2="${M.top + plotH}" stroke="#f0f0f0"/>`,
    );
    out.push(`<text x="${x(t)}" y="${M.top + plotH + 18}" text-anchor="middle">${t}</text>`);
  }
  out.push(
    `<rect x="${M.left}" y="${M.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#999"/>`,
  );
  out.push(
    `<text x="${M.left + plotW / 2}" y="${H - 10}" text-anchor="middle">${esc(o.xLabel)}</text>`,
  );
  out.push(
    `<text transform="translate(16 ${M.top + plotH / 2}) rotate(-90)" text-anchor="middle">${esc(o.yLabel)}</text>`,
  );
  if (o.yRef) {
    out.push(
      `<line x1="${M.left}" x2="${M.left + plotW}" y1="${y(o.yRef.value)}" y2="${y(o.yRef.value)}" stroke="#333" stroke-dasharray="2 3"/>`,
    );
    out.push(
      `<text x="${M.left + 4}" y="${y(o.yRef.value) - 4}" fill="#333">${esc(o.yRef.label)}</text>`,
    );
  }
  o.series.forEach((s, i) => {
    const color = PALETTE[i % PALETTE.length]!;
    const path = s.points
      .map(([px, py], j) => `${j === 0 ? "M" : "L"}${x(px).toFixed(1)},${y(py).toFixed(1)}`)
      .join(" ");
    const dash = s.dashed ? ` stroke-dasharray="6 4"` : "";
    out.push(`<path d="${path}" fill="none" stroke="${color}" stroke-width="2"${dash}/>`);
    for (const [px, py] of s.points)
      out.push(`<circle cx="${x(px).toFixed(1)}" cy="${y(py).toFixed(1)}" r="3" fill="${color}"/>`);
    const ly = M.top + 10 + i * 20;
    out.push(
      `<line x1="${W - M.right + 15}" x2="${W - M.right + 40}" y1="${ly}" y2="${ly}" stroke="${color}" stroke-width="2"${dash}/>`,
    );
    out.push(`<text x="${W - M.right + 46}" y="${ly + 4}">${esc(s.name)}</text>`);
  });
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}

/** 1, 2 or 5 times a power of ten: ticks a reader can add up. */
function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
}

function fmt(v: number): string {
  return Number.isInteger(Math.round(v * 1e6) / 1e6) ? String(Math.round(v)) : v.toFixed(1);
}

function esc(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
