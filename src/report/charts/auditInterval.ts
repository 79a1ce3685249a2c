// The audit's realized coverage with its Clopper–Pearson 95% interval, against the target: the audit
// fails only when the whole interval lies below the target.
import type { RunSummary } from "../summary.js";
import { COLORS, type ChartOption, fmt } from "./chart.js";

export function auditChart(s: RunSummary): ChartOption {
  const a = s.audit;
  const lo = Math.max(0, Math.floor((Math.min(a.ci[0], a.target) - 0.05) * 20) / 20);
  const color = a.result === "pass" ? COLORS.good : COLORS.bad;
  return {
    grid: { left: 110, right: 30, top: 40, bottom: 50 },
    legend: { top: 8, data: ["Clopper–Pearson 95% interval", "realized coverage", "target"] },
    xAxis: { type: "value", name: "coverage", nameLocation: "middle", nameGap: 30, min: lo, max: 1, interval: 1 - lo > 0.3 ? 0.1 : 0.05 },
    yAxis: { type: "category", data: [`audit (n=${a.sample})`] },
    series: [
      {
        name: "Clopper–Pearson 95% interval", type: "line", data: [[fmt(a.ci[0], 4), 0], [fmt(a.ci[1], 4), 0]],
        lineStyle: { width: 6, color }, symbol: "rect", symbolSize: [3, 24], color,
      },
      { name: "realized coverage", type: "scatter", data: [[fmt(a.realizedCoverage, 4), 0]], symbolSize: 16, color: COLORS.main },
      { name: "target", type: "scatter", data: [[a.target, 0]], symbol: "diamond", symbolSize: 0.001, color: COLORS.target,
        markLine: { symbol: "none", lineStyle: { type: "dashed", color: COLORS.target }, label: { formatter: `target ${a.target}` }, data: [{ xAxis: a.target }] } },
    ],
  };
}
