// A typed run's measured quantity (a gate's realized risk, a claim run's factuality, a route's accuracy or cost)
// with the band it should land in on this split and its target, and the run's rates beside it: the figure of
// a typed run that has no reliability diagram.
import type { QuerySection } from "../querySummary.js";
import { COLORS, type ChartOption, fmt } from "./chart.js";

export function queryBandChart(q: QuerySection): ChartOption {
  const color = q.inBand ? COLORS.good : COLORS.bad;
  const rows = [q.quantity, ...q.rates.map((r) => r.name)];
  const top = Math.max(1, q.value, q.target, q.band[1], ...q.rates.map((r) => r.value));
  return {
    grid: { left: 220, right: 40, top: 40, bottom: 50 },
    legend: { top: 8, data: ["band", "measured", "rate", "target"] },
    xAxis: { type: "value", min: 0, max: fmt(top, 4) },
    yAxis: { type: "category", data: rows, inverse: true, axisLabel: { width: 200, overflow: "truncate" } },
    series: [
      { name: "band", type: "line", data: [[fmt(q.band[0], 4), 0], [fmt(q.band[1], 4), 0]], lineStyle: { width: 6, color }, symbol: "rect", symbolSize: [3, 22], color },
      { name: "measured", type: "scatter", data: [[fmt(q.value, 4), 0]], symbolSize: 16, color: COLORS.main },
      { name: "rate", type: "bar", data: [null, ...q.rates.map((r) => fmt(r.value, 4))], barWidth: 14, color: "rgba(107,114,128,0.45)" },
      { name: "target", type: "scatter", data: [[q.target, 0]], symbolSize: 0.001, color: COLORS.target,
        markLine: { symbol: "none", lineStyle: { type: "dashed", color: COLORS.target }, label: { formatter: `target ${q.target}`, position: "end" }, data: [{ xAxis: q.target }] } },
    ],
  };
}
