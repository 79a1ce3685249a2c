// Reliability diagram of the Venn-Abers beliefs: per bin of belief, how often the option was the gold
// one. Calibrated beliefs lie on the diagonal; the bars under the points show how many pairs each bin holds.
import type { RunSummary } from "../summary.js";
import { COLORS, type ChartOption, fmt } from "./chart.js";

export function reliabilityChart(s: Pick<RunSummary, "reliability">): ChartOption {
  const bins = s.reliability.bins.filter((b) => b.count > 0);
  return {
    grid: { left: 60, right: 60, top: 40, bottom: 50 },
    legend: { top: 8, data: ["observed frequency", "perfect calibration", "pairs per bin"] },
    xAxis: { type: "value", name: "Venn-Abers belief", nameLocation: "middle", nameGap: 30, min: 0, max: 1 },
    yAxis: [
      { type: "value", name: "observed", min: 0, max: 1 },
      { type: "value", name: "pairs", position: "right", splitLine: { show: false } },
    ],
    series: [
      {
        name: "pairs per bin", type: "bar", yAxisIndex: 1, barWidth: "60%", color: "rgba(107,114,128,0.25)",
        data: bins.map((b) => [fmt((b.lower + b.upper) / 2, 3), b.count]),
      },
      { name: "perfect calibration", type: "line", data: [[0, 0], [1, 1]], symbol: "none", lineStyle: { type: "dashed", color: COLORS.target }, color: COLORS.target },
      { name: "observed frequency", type: "line", data: bins.map((b) => [fmt(b.meanBelief, 4), fmt(b.observed, 4)]), symbolSize: 8, color: COLORS.main },
    ],
  };
}
