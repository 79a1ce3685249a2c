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

const axis = (cats: string[]) => ({ type: "category" as const, data: cats, axisLabel: { rotate: 30, fontSize: 10 } });
/** One row per model × task × scorer: the ranking metrics do not depend on α. */
const firstAlpha = (rows: BenchGenerationRow[]) => [...new Map(rows.map((r) => [`${r.model}|${r.task}|${r.scorer}`, r])).values()];
const multiTask = (rows: BenchGenerationRow[]) => new Set(rows.map((r) => r.task)).size > 1;

/** ROC-AUC of each scorer, models side by side; 0.5 is a score that ranks no better than chance. */
export function benchScorerAucChart(s: BenchSummary): ChartOption {
  const rows = firstAlpha(s.generation ?? []);
  const many = multiTask(rows);
  const { cats, series } = seriesPerModel(s, rows, (r) => (many ? `${r.task} · ${r.scorer}` : r.scorer), (r) => r.rocAuc);
  return {
    grid: { left: 60, right: 24, top: 40, bottom: 130 }, legend: { top: 8 }, xAxis: axis(cats),
    yAxis: { type: "value", name: "ROC-AUC (right answers ranked first)", min: 0, max: 1 },
    series: [
      ...series,
      { name: "chance 0.5", type: "line", data: cats.map(() => 0.5), symbol: "none", lineStyle: { type: "dashed" }, color: COLORS.target },
    ],
  };
}

/** Each gate's realized risk (mean over repeats), models side by side, against its target α. */
export function benchScorerRiskChart(s: BenchSummary): ChartOption {
  const rows = (s.generation ?? []).filter((r) => r.queryType === "gate");
  const many = multiTask(rows);
  const label = (r: BenchGenerationRow) => `${many ? `${r.task} · ` : ""}${r.scorer} · α ${r.alpha}`;
  const { cats, series } = seriesPerModel(s, rows, label, (r) => r.guarantee.value.mean);
  return {
    grid: { left: 60, right: 24, top: 40, bottom: 150 }, legend: { top: 8 }, xAxis: axis(cats),
    yAxis: { type: "value", name: "realized risk (mean over repeats)", min: 0 },
    series: [
      ...series,
      { name: "target α", type: "line", data: cats.map((c) => rows.find((r) => label(r) === c)!.alpha!), symbol: "rect", lineStyle: { type: "dashed" }, color: COLORS.target },
    ],
  };
}
