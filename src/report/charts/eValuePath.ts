// The monitor's e-value after each labelled observation, on a log scale, with the alarm threshold
// 1/false_alarm_rate: by Ville's inequality a well-calibrated stream crosses it with probability ≤ the rate.
import type { RunSummary } from "../summary.js";
import { COLORS, type ChartOption, fmt } from "./chart.js";

export function eValueChart(s: RunSummary): ChartOption {
  const m = s.monitor;
  const values = m.path.map((p) => p.eValue);
  const min = Math.min(1e-2, ...values);
  return {
    grid: { left: 70, right: 24, top: 40, bottom: 50 },
    legend: { top: 8, data: ["e-value", "alarm threshold"] },
    xAxis: { type: "value", name: "labelled observations", nameLocation: "middle", nameGap: 30, min: 0, max: Math.max(1, m.path.length) },
    yAxis: { type: "log", name: "e-value", min: 10 ** Math.floor(Math.log10(min)), max: 10 ** Math.ceil(Math.log10(Math.max(m.threshold * 10, ...values))) },
    series: [
      { name: "e-value", type: "line", data: [[0, 1], ...m.path.map((p) => [p.n, fmt(p.eValue, 6)])], symbol: "none", color: COLORS.main },
      { name: "alarm threshold", type: "line", data: [[0, m.threshold], [Math.max(1, m.path.length), m.threshold]], symbol: "none",
        lineStyle: { type: "dashed", color: COLORS.bad }, color: COLORS.bad },
    ],
  };
}
