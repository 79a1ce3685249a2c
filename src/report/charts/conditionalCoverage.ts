// Coverage of each true class and each set size on the test split, with Clopper–Pearson 95% ranges,
// against the target: marginal coverage can hold while one class or the singletons fall short.
import type { RunSummary } from "../summary.js";
import type { StratumCoverage } from "../../conformal/index.js";
import { COLORS, type ChartOption, fmt } from "./chart.js";

export function conditionalCoverageChart(s: RunSummary): ChartOption {
  const st = s.statistics!;
  const sizeWord = s.queryType === "interval" ? "width" : "size";
  const rows: [string, StratumCoverage][] = [
    ...st.coverageByClass.map((r) => [`class ${r.key} (n=${r.n})`, r] as [string, StratumCoverage]),
    ...st.coverageBySize.map((r) => [`${sizeWord} ${r.key} (n=${r.n})`, r] as [string, StratumCoverage]),
  ];
  const lo = Math.min(st.target, ...rows.map(([, r]) => r.ci[0]));
  const min = Math.max(0, Math.floor((lo - 0.05) * 10) / 10);
  const under = (r: StratumCoverage) => r.ci[1] < st.target;
  return {
    grid: { left: 140, right: 30, top: 40, bottom: 50 },
    legend: { top: 8, data: ["coverage", "95% interval", "target"] },
    // Bars stack from 0, so every value is shifted by the axis minimum and the axis relabelled.
    xAxis: { type: "value", name: "test coverage", nameLocation: "middle", nameGap: 30, min: 0, max: fmt(1 - min, 4), axisLabel: { formatter: (v: number) => fmt(v + min, 2).toString() } },
    yAxis: { type: "category", data: rows.map(([label]) => label), inverse: true },
    series: [
      // A floating bar from the interval's lower end to its upper end: an invisible bar, then the range.
      { name: "95% interval-base", type: "bar", stack: "ci", data: rows.map(([, r]) => fmt(r.ci[0] - min, 4)), itemStyle: { color: "transparent" }, barWidth: 10 },
      { name: "95% interval", type: "bar", stack: "ci", data: rows.map(([, r]) => fmt(r.ci[1] - r.ci[0], 4)), color: COLORS.band, barWidth: 10 },
      {
        name: "coverage", type: "scatter", symbolSize: 10, color: COLORS.main,
        data: rows.map(([, r]) => ({ value: fmt(r.coverage - min, 4), itemStyle: { color: under(r) ? COLORS.bad : COLORS.main } })),
      },
      {
        name: "target", type: "line", data: [], color: COLORS.target,
        markLine: { symbol: "none", lineStyle: { type: "dashed", color: COLORS.target }, label: { formatter: `target ${st.target}`, position: "end" }, data: [{ xAxis: fmt(st.target - min, 4) }] },
      },
    ],
  };
}
