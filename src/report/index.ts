// The run report: summary.json (the data) and report.html (self-contained, offline) from one RunSummary.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { auditChart } from "./charts/auditInterval.js";
import { type Figure, renderChart } from "./charts/chart.js";
import { baselinesChart } from "./charts/baselines.js";
import { conditionalCoverageChart } from "./charts/conditionalCoverage.js";
import { coverageSweepChart } from "./charts/coverageSweep.js";
import { eValueChart } from "./charts/eValuePath.js";
import { reliabilityChart } from "./charts/reliability.js";
import { setSizeChart } from "./charts/setSizes.js";
import { pageOf } from "./html.js";
import { queryPageOf } from "./queryHtml.js";
import type { QueryRunSummary } from "./querySummary.js";
import type { RunSummary } from "./summary.js";

export type { Disagreement, RunSummary, SummaryAlert } from "./summary.js";
export type { Figure } from "./charts/chart.js";
export type { BaselineRow, ForecastCalibration, RunStatistics } from "./runStatistics.js";
export type { BaselineOverRepeats, CellStatistics, ForecastOverRepeats, Spread, StratumOverRepeats } from "./repeatStatistics.js";
export { overRepeats, spreadOf } from "./repeatStatistics.js";
export type { GenerationSection, QueryRunSummary, QuerySection, ScorerGuarantee } from "./querySummary.js";
export { escapeHtml } from "./html.js";

/** The report's figures, in page order; ids are stable (tests and links use them). */
export function figuresOf(s: RunSummary): Figure[] {
  const interval = s.queryType === "interval";
  const answers = interval ? "intervals" : "sets";
  return [
    { id: "coverage-sweep", title: "Coverage against target", caption: `test coverage for a sweep of α (local engine, same scores; n = ${s.test.n})`, svg: renderChart(coverageSweepChart(s)) },
    { id: "set-sizes", title: interval ? "Interval-size distribution" : "Set-size distribution", caption: `sizes of the service's ${answers} at α = ${s.profile.alpha}${interval ? ", in levels" : ""}`, svg: renderChart(setSizeChart(s)) },
    {
      id: "reliability", title: "Reliability of Venn-Abers beliefs",
      caption: s.reliability.pairs > 0 ? `${s.reliability.pairs} (item, option) pairs of the test split` : "interval answers carry no Venn-Abers beliefs: nothing to plot",
      svg: renderChart(reliabilityChart(s)),
    },
    { id: "audit", title: "Audit", caption: `realized coverage on ${s.audit.sample} held-out examples with its Clopper–Pearson 95% interval: ${s.audit.result}`, svg: renderChart(auditChart(s), 640, 220) },
    { id: "e-value", title: "Monitor e-value path", caption: `${s.monitor.type} monitor, false-alarm rate ${s.monitor.falseAlarmRate}: ${s.monitor.status}`, svg: renderChart(eValueChart(s)) },
    ...statisticsFigures(s),
  ];
}

/** Figures of the statistics section; none for a summary written before it existed. */
function statisticsFigures(s: RunSummary): Figure[] {
  const st = s.statistics;
  if (!st) return [];
  const rows = st.coverageByClass.length + st.coverageBySize.length;
  return [
    {
      id: "conditional-coverage", title: "Coverage by true class and by set size",
      caption: `test coverage of the service's ${s.queryType === "interval" ? "intervals" : "sets"} per stratum, Clopper–Pearson 95% ranges; red: the whole range lies below the target`,
      svg: renderChart(conditionalCoverageChart(s), 640, Math.max(260, 90 + 26 * rows)),
    },
    {
      id: "baselines", title: "Conformal sets beside naive ones",
      caption: `coverage against mean size on the test split at α = ${st.alpha}, with Clopper–Pearson 95% ranges`,
      svg: renderChart(baselinesChart(s)),
    },
  ];
}

export const FIGURE_IDS = ["coverage-sweep", "set-sizes", "reliability", "audit", "e-value", "conditional-coverage", "baselines"] as const;

export function renderReport(summary: RunSummary): string {
  return pageOf(summary, figuresOf(summary));
}

/** Writes summary.json and report.html into `outDir` (created when missing); returns their paths. */
export async function writeReport(outDir: string, summary: RunSummary | QueryRunSummary): Promise<{ summaryPath: string; reportPath: string }> {
  await mkdir(outDir, { recursive: true });
  const summaryPath = join(outDir, "summary.json");
  const reportPath = join(outDir, "report.html");
  await writeFile(summaryPath, JSON.stringify(summary, null, 2) + "\n");
  await writeFile(reportPath, "section" in summary ? queryPageOf(summary) : renderReport(summary));
  return { summaryPath, reportPath };
}
export type { BenchEvidence, BenchFailure, BenchGenerationRow, BenchRow, BenchSummary } from "./benchSummary.js";
export { benchPageOf, BENCH_FIGURE_IDS } from "./benchHtml.js";
