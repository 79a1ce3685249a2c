// Charts of a suite: models side by side (one series per model) for every task × method × α.
import type { BenchRow, BenchSummary } from "../benchSummary.js";
import { COLORS, type ChartOption, fmt } from "./chart.js";

const label = (r: BenchRow) => `${r.task} · ${r.method} · α ${r.alpha}`;

function categories(s: BenchSummary): string[] {
  return [...new Set(s.rows.map(label))];
}

function perModel(s: BenchSummary, value: (r: BenchRow) => number): { name: string; data: (number | null)[] }[] {
  const cats = categories(s);
  return s.models.map((m) => ({
    name: m.split("/").pop()!,
    data: cats.map((c) => {
      const r = s.rows.find((x) => x.model === m && label(x) === c);
      return r ? fmt(value(r), 4) : null;
    }),
  }));
}

/** The dashed 1 − α line over the categories (each category's α). */
function targetLine(s: BenchSummary, cats: string[]) {
  const data = cats.map((c) => 1 - s.rows.find((r) => label(r) === c)!.alpha);
  return { name: "target 1 − α", type: "line" as const, data, symbol: "rect", lineStyle: { type: "dashed" as const }, color: COLORS.target };
}

/** A model's values with NaN (a stratum or baseline a repeat lacks) as a gap. */
const gapsForNaN = (data: (number | null)[]) => data.map((v) => (v === null || Number.isNaN(v) ? null : v));

const axis = (cats: string[]) => ({ type: "category" as const, data: cats, axisLabel: { rotate: 30, fontSize: 10 } });

export function benchCoverageChart(s: BenchSummary): ChartOption {
  const cats = categories(s);
  return {
    grid: { left: 60, right: 24, top: 40, bottom: 110 },
    legend: { top: 8 },
    xAxis: axis(cats),
    // Bars from 0: a bar's length is its value (an axis from 0.6 made 0.7 look a third of 0.9).
    yAxis: { type: "value", name: "test coverage (mean over repeats)", min: 0, max: 1 },
    series: [
      ...perModel(s, (r) => r.coverage.mean).map((x) => ({ ...x, type: "bar" as const })),
      targetLine(s, cats),
    ],
  };
}

export function benchSetSizeChart(s: BenchSummary): ChartOption {
  return {
    grid: { left: 60, right: 24, top: 40, bottom: 110 }, legend: { top: 8 }, xAxis: axis(categories(s)),
    yAxis: { type: "value", name: "mean set size" },
    series: perModel(s, (r) => r.meanSetSize).map((x) => ({ ...x, type: "bar" as const })),
  };
}

/** The first cell of each model × task: raw and Venn–Abers calibration depend on the splits, not on the method or α. */
export const modelTaskRows = (s: BenchSummary): BenchRow[] => [...new Map(s.rows.map((r) => [`${r.model}|${r.task}`, r])).values()];

export function benchCalibrationChart(s: BenchSummary): ChartOption {
  const pairs = modelTaskRows(s);
  const cats = pairs.map((r) => `${r.model.split("/").pop()} · ${r.task}`);
  const num = (x: number) => (Number.isFinite(x) ? fmt(x, 4) : null);
  return {
    grid: { left: 60, right: 24, top: 40, bottom: 110 }, legend: { top: 8 }, xAxis: axis(cats),
    yAxis: { type: "value", name: "ECE (10 bins), mean over repeats" },
    series: [
      { name: "raw probabilities", type: "bar", data: pairs.map((r) => num(r.eceRaw)), color: COLORS.bad },
      { name: "Venn–Abers beliefs", type: "bar", data: pairs.map((r) => num(r.eceVennAbers)), color: COLORS.good },
    ],
  };
}

/** The worst class and the size-stratified coverage of each model, beside the marginal target. */
export function benchConditionalChart(s: BenchSummary): ChartOption {
  const cats = categories(s);
  const worst = (r: BenchRow) => Math.min(...r.statistics.coverageByClass.map((x) => x.coverage.mean));
  const ssc = (r: BenchRow) => (Number.isFinite(r.statistics.sizeStratifiedCoverage.mean) ? r.statistics.sizeStratifiedCoverage.mean : NaN);
  const series = (name: string, value: (r: BenchRow) => number) =>
    perModel(s, value).map((x) => ({ ...x, name: `${x.name} ${name}`, data: gapsForNaN(x.data) }));
  return {
    grid: { left: 60, right: 24, top: 90, bottom: 110 },
    legend: { top: 8 },
    xAxis: axis(cats),
    yAxis: { type: "value", name: "coverage", min: 0, max: 1 },
    series: [
      ...series("worst class", worst).map((x) => ({ ...x, type: "bar" as const })),
      ...series("size-stratified", ssc).map((x) => ({ ...x, type: "scatter" as const, symbolSize: 10 })),
      targetLine(s, cats),
    ],
  };
}

/** Coverage of the conformal sets and of the naive ones at the same α, models side by side. */
export function benchBaselinesChart(s: BenchSummary): ChartOption {
  const cats = categories(s);
  const names = [...new Set(s.rows.flatMap((r) => r.statistics.baselines.map((b) => b.name)))];
  return {
    grid: { left: 60, right: 24, top: 90, bottom: 110 },
    legend: { top: 8 },
    xAxis: axis(cats),
    yAxis: { type: "value", name: "coverage", min: 0, max: 1 },
    series: [
      ...names.flatMap((n) => perModel(s, (r) => r.statistics.baselines.find((b) => b.name === n)?.coverage.mean ?? NaN)
        .map((x) => ({ ...x, name: `${x.name} ${n}`, data: gapsForNaN(x.data), type: "bar" as const }))),
      targetLine(s, cats),
    ],
  };
}

export function benchThroughputChart(s: BenchSummary): ChartOption {
  const tasks = [...new Set(s.evidence.map((e) => e.task))];
  return {
    grid: { left: 60, right: 24, top: 40, bottom: 60 }, legend: { top: 8 }, xAxis: axis(tasks),
    yAxis: { type: "value", name: "items/s the model computed" },
    series: s.models.map((m) => ({
      name: m.split("/").pop()!, type: "bar" as const,
      data: tasks.map((t) => {
        const e = s.evidence.find((x) => x.model === m && x.task === t);
        // Rows read from the cache are not the model's throughput (they made 34,110 items/s): computed rows only.
        return e && e.computed > 0 && e.seconds > 0 ? fmt(e.computed / e.seconds, 2) : null;
      }),
    })),
  };
}
