// One plot = one echarts option rendered server-side to an SVG string (no DOM, no animation), so the
// report embeds finished pictures and opens offline with no script at all.
import * as echarts from "echarts";

export type ChartOption = echarts.EChartsOption;

export interface Figure {
  id: string;
  title: string;
  caption: string;
  svg: string;
}

export const CHART_WIDTH = 640;
export const CHART_HEIGHT = 360;

export function renderChart(option: ChartOption, width = CHART_WIDTH, height = CHART_HEIGHT): string {
  const chart = echarts.init(null, null, { renderer: "svg", ssr: true, width, height });
  try {
    chart.setOption({ animation: false, backgroundColor: "#ffffff", textStyle: { fontFamily: "sans-serif" }, ...laidOut(option, width) });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

type Named = { name?: unknown; nameLocation?: string };
const many = <T>(x: T | T[] | undefined): T[] => (x === undefined ? [] : Array.isArray(x) ? x : [x]);

/**
 * Gives the legend a band of its own above the plot (as many rows as its items need at this width, plus room for
 * a y-axis name written above the axis) and puts every target line's label inside the plot along its line, where
 * neither the legend nor a tick label can be: labels at a line's end used to sit on the legend.
 */
function laidOut(option: ChartOption, width: number): ChartOption {
  const legend = many(option.legend as { top?: number; data?: unknown[] } | undefined)[0];
  const series = many(option.series as { name?: string; markLine?: { label?: object } }[] | undefined);
  const out: ChartOption = {
    ...option,
    series: series.map((x) => (x.markLine ? { ...x, markLine: { ...x.markLine, label: { ...x.markLine.label, position: "insideEndTop" } } } : x)) as ChartOption["series"],
  };
  if (!legend) return out;
  const names = (legend.data ?? series.map((x) => x.name)).map((n) => String(typeof n === "object" && n !== null ? (n as { name?: string }).name : n));
  // ECharts' legend item: a 25 px icon, 5 px to its text, 10 px to the next; about 7 px a character of 12 px sans-serif.
  const itemWidths = names.map((n) => 25 + 5 + 7 * n.length + 10);
  let rows = 1;
  let used = 0;
  for (const w of itemWidths) {
    if (used > 0 && used + w > width - 20) { rows++; used = 0; }
    used += w;
  }
  const legendBottom = (legend.top ?? 8) + rows * 24;
  const yNamedAbove = many(option.yAxis as Named | Named[] | undefined).some((a) => a.name && (a.nameLocation ?? "end") === "end");
  const grids = many(option.grid as { top?: number } | undefined);
  const top = legendBottom + (yNamedAbove ? 28 : 12);
  out.grid = (grids.length ? grids : [{}]).map((g) => ({ ...g, top: Math.max(typeof g.top === "number" ? g.top : 60, top) })) as ChartOption["grid"];
  return out;
}

export const COLORS = { main: "#2563eb", target: "#6b7280", band: "rgba(37,99,235,0.15)", bad: "#dc2626", good: "#16a34a" };

/** Rounds for display in tooltips and labels. */
export const fmt = (x: number, digits = 3) => Number(x.toFixed(digits));
