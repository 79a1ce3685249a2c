// Risk–coverage curves of a free-form run's scorers (El-Yaniv & Wiener 2010): keep the most confident share of the
// answers, and see how many of those are wrong. Lower and flatter is better; the right end is the plain error rate.
import type { GenerationSection } from "../querySummary.js";
import { type ChartOption, fmt } from "./chart.js";

const PALETTE = ["#2563eb", "#16a34a", "#d97706", "#9333ea", "#db2777"];

/** The chosen scorer's curve and the best others by area, at most five. */
export function riskCoverageChart(g: GenerationSection): ChartOption {
  const chosen = g.scorers.find((s) => s.scorer === g.scorer);
  const others = g.scorers.filter((s) => s !== chosen && Number.isFinite(s.rccAuc)).sort((a, b) => a.rccAuc - b.rccAuc).slice(0, chosen ? 4 : 5);
  const shown = [...(chosen ? [chosen] : []), ...others];
  return {
    grid: { left: 60, right: 24, top: 60, bottom: 50 },
    legend: { top: 8, data: shown.map((s) => s.scorer) },
    xAxis: { type: "value", name: "coverage (share of answers kept)", nameLocation: "middle", nameGap: 30, min: 0, max: 1 },
    yAxis: { type: "value", name: "risk (wrong among kept)", min: 0 },
    series: shown.map((s, i) => ({
      name: s.scorer, type: "line", symbolSize: 4, color: PALETTE[i % PALETTE.length],
      lineStyle: { width: s === chosen ? 3 : 1.5 },
      data: s.riskCoverage.coverage.map((c, k) => [fmt(c, 4), fmt(s.riskCoverage.risk[k]!, 4)]),
    })),
  };
}
