// Charts of a suite's free-form tasks: the scorers side by side, one series per model, so a reader sees at a glance
// which score ranks right answers first on which model, and where each gate's realized risk lands against α.
import type { BenchGenerationRow, BenchSummary } from "../benchSummary.js";
import { COLORS, type ChartOption, fmt } from "./chart.js";

const short = (m: string) => m.replace(/\/+$/, "").split("/").pop()!;

function seriesPerModel(s: BenchSummary, rows: BenchGenerationRow[], label: (r: BenchGenerationRow) => string, value: (r: BenchGenerationRow) => number) {
  const cats = [...new Set(rows.map(label))];
  const series = s.models.filter((m) => rows.some((r) => r.model === m)).map((m) => ({
    name: short(m), type: "bar" as const,
    data: cats.map((c) => {
      const r = rows.find((x) => x.model === m && label(x) === c);
      return r && Number.isFinite(value(r)) ? fmt(value(r), 4) : null;
    }),
  }));
  return { cats, series };
}

/**
 * Scorer names are long (lm-polygraph's "EigValLaplacian_NLI_score_entail"): the categories go down the y axis,
 * written level, first on top, with the grid's left edge past the longest (about 6.5 px a character at 11 px).
 */
const categoryAxis = (cats: string[]) => ({ type: "category" as const, data: cats, inverse: true, axisLabel: { fontSize: 11, interval: 0 } });
const leftOf = (cats: string[]) => 16 + Math.ceil(6.5 * Math.max(8, ...cats.map((c) => c.length)));
/** Height of a chart of `cats` categories with `bars` bars in each, and room for the legend and the value axis. */
export const barsHeight = (cats: number, bars: number) => Math.max(300, 130 + cats * (12 * bars + 12));
/** One row per model × task × scorer: the ranking metrics do not depend on α. */
const firstAlpha = (rows: BenchGenerationRow[]) => [...new Map(rows.map((r) => [`${r.model}|${r.task}|${r.scorer}`, r])).values()];
const multiTask = (rows: BenchGenerationRow[]) => new Set(rows.map((r) => r.task)).size > 1;

/** ROC-AUC of each scorer, models side by side; 0.5 is a score that ranks no better than chance. */
export function benchScorerAucChart(s: BenchSummary): ChartOption {
  const rows = firstAlpha(s.generation ?? []);
  const many = multiTask(rows);
  const { cats, series } = seriesPerModel(s, rows, (r) => (many ? `${r.task} · ${r.scorer}` : r.scorer), (r) => r.rocAuc);
  return {
    grid: { left: leftOf(cats), right: 32, top: 40, bottom: 50 }, legend: { top: 8 }, yAxis: categoryAxis(cats),
    xAxis: { type: "value", name: "ROC-AUC (right answers ranked first)", nameLocation: "middle", nameGap: 28, min: 0, max: 1 },
    series: series.map((x, i) => (i === 0 ? { ...x, markLine: { symbol: "none", silent: true, lineStyle: { type: "dashed", color: COLORS.target }, label: { formatter: "chance 0.5" }, data: [{ xAxis: 0.5 }] } } : x)),
  };
}

/** Each gate's realized risk (mean over repeats), models side by side, against its target α. */
export function benchScorerRiskChart(s: BenchSummary): ChartOption {
  const rows = (s.generation ?? []).filter((r) => r.queryType === "gate");
  const many = multiTask(rows);
  const label = (r: BenchGenerationRow) => `${many ? `${r.task} · ` : ""}${r.scorer} · α ${r.alpha}`;
  const { cats, series } = seriesPerModel(s, rows, label, (r) => r.guarantee.value.mean);
  return {
    grid: { left: leftOf(cats), right: 32, top: 40, bottom: 50 }, legend: { top: 8 }, yAxis: categoryAxis(cats),
    xAxis: { type: "value", name: "realized risk (mean over repeats)", nameLocation: "middle", nameGap: 28, min: 0 },
    series: [
      ...series,
      // α of each category, drawn as a mark across its own bars.
      { name: "target α", type: "scatter", symbol: "rect", symbolSize: [3, 12 * Math.max(1, series.length)], color: COLORS.target, data: cats.map((c, i) => [rows.find((r) => label(r) === c)!.alpha!, i]) },
    ],
  };
}
