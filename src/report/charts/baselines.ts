// Conformal sets beside the naive ones at the same α: coverage against mean set size on the test split.
// Up and left is better; only the conformal sets are guaranteed to sit above the target.
import type { RunSummary } from "../summary.js";
import { COLORS, type ChartOption, fmt } from "./chart.js";

export function baselinesChart(s: RunSummary): ChartOption {
  const st = s.statistics!;
  const rows = st.baselines;
  const lo = Math.min(st.target, ...rows.map((r) => r.ci[0]));
  const min = Math.max(0, Math.floor((lo - 0.05) * 10) / 10);
  const maxSize = Math.max(1, ...rows.map((r) => r.averageSize));
  return {
    grid: { left: 60, right: 40, top: 40, bottom: 50 },
    legend: { top: 8, data: ["conformal", "naive", "target"] },
    xAxis: { type: "value", name: "mean set size", nameLocation: "middle", nameGap: 30, min: 0, max: Math.ceil(maxSize + 0.5) },
    yAxis: { type: "value", name: "test coverage", min, max: 1 },
    series: [
      ...(["conformal", "naive"] as const).map((kind) => ({
        name: kind, type: "scatter" as const, symbolSize: 14, color: kind === "conformal" ? COLORS.good : COLORS.main,
        data: rows.filter((r) => r.guaranteed === (kind === "conformal")).map((r) => ({ value: [fmt(r.averageSize, 4), fmt(r.coverage, 4)], name: r.name })),
        label: { show: true, position: "right" as const, formatter: "{b}" },
      })),
      ...rows.map((r) => ({
        name: `${r.name} interval`, type: "line" as const, data: [[fmt(r.averageSize, 4), fmt(r.ci[0], 4)], [fmt(r.averageSize, 4), fmt(r.ci[1], 4)]],
        symbol: "none", lineStyle: { width: 2, color: r.guaranteed ? COLORS.good : COLORS.main, opacity: 0.5 },
      })),
      {
        name: "target", type: "line", data: [[0, st.target], [Math.ceil(maxSize + 0.5), st.target]], symbol: "none",
        lineStyle: { type: "dashed", color: COLORS.target }, color: COLORS.target,
      },
    ],
  };
}
