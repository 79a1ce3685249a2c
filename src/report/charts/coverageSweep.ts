// Coverage against target over a sweep of α: points on the diagonal mean the guarantee holds exactly;
// the band is the finite-sample range expected for this test size.
import type { RunSummary } from "../summary.js";
import { COLORS, type ChartOption, fmt } from "./chart.js";

export function coverageSweepChart(s: RunSummary): ChartOption {
  const rows = [...s.sweep].sort((a, b) => a.target - b.target);
  const lo = Math.min(...rows.map((r) => Math.min(r.target, r.coverage, r.band[0])));
  const min = Math.max(0, Math.floor((lo - 0.02) * 10) / 10);
  return {
    grid: { left: 60, right: 24, top: 40, bottom: 50 },
    legend: { top: 8, data: ["measured coverage", "target (y = x)", "finite-sample band"] },
    xAxis: { type: "value", name: "target coverage 1 − α", nameLocation: "middle", nameGap: 30, min, max: 1 },
    yAxis: { type: "value", name: "test coverage", min, max: 1 },
    series: [
      { name: "finite-sample band", type: "line", data: rows.map((r) => [r.target, fmt(r.band[0], 4)]), stack: "band", lineStyle: { opacity: 0 }, symbol: "none", color: COLORS.band },
      {
        name: "finite-sample band-upper", type: "line", data: rows.map((r) => [r.target, fmt(r.band[1] - r.band[0], 4)]), stack: "band",
        lineStyle: { opacity: 0 }, symbol: "none", areaStyle: { color: COLORS.band },
      },
      { name: "target (y = x)", type: "line", data: [[min, min], [1, 1]], symbol: "none", lineStyle: { type: "dashed", color: COLORS.target }, color: COLORS.target },
      { name: "measured coverage", type: "line", data: rows.map((r) => [r.target, fmt(r.coverage, 4)]), symbolSize: 7, color: COLORS.main },
    ],
  };
}
