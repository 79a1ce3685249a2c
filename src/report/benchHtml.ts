// The comparative report of a suite: one self-contained page, tables per model × task × method × α and
// the figures that put the models side by side.
import {
  benchBaselinesChart, benchCalibrationChart, benchConditionalChart, benchCoverageChart, benchSetSizeChart, benchThroughputChart, modelTaskRows,
} from "./charts/bench.js";
import { type Figure, renderChart } from "./charts/chart.js";
import type { BenchRow, BenchSummary } from "./benchSummary.js";
import { escapeHtml } from "./escape.js";
import type { Spread } from "./repeatStatistics.js";
import { statisticsTables } from "./statisticsSection.js";
import { generationFigures, generationSection } from "./benchGenerationHtml.js";

export const BENCH_FIGURE_IDS = ["bench-coverage", "bench-set-size", "bench-conditional", "bench-baselines", "bench-calibration", "bench-throughput"] as const;

const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : "–");
const num = (x: number | null, d = 3) => (x === null || !Number.isFinite(x) ? "–" : x.toFixed(d));
/** A model's file name, or a server's host and port (a URL ending in /v1 would show only "v1"). */
const short = (m: string) => escapeHtml(m.replace(/\/+$/, "").replace(/^(https?:\/\/.*)\/v1$/i, "$1").split("/").pop()!);

/** The figures of the multiple-choice cells (none without them), the free-form cells', then the throughput. */
export function benchFigures(s: BenchSummary): Figure[] {
  const all = [...(s.rows.length ? choiceFigures(s) : []), ...generationFigures(s)];
  return [...all, { id: "bench-throughput", title: "Evidence throughput", caption: "items per second the model computed in the evidence step; rows read from the cache are left out (a model × task read wholly from the cache has no bar)", svg: renderChart(benchThroughputChart(s)) }];
}

function choiceFigures(s: BenchSummary): Figure[] {
  const wide = Math.max(640, 60 * new Set(s.rows.map((r) => `${r.task}${r.method}${r.alpha}`)).size);
  return [
    { id: "bench-coverage", title: "Coverage by model", caption: `mean test coverage over ${s.repeats} repeats against the target 1 − α`, svg: renderChart(benchCoverageChart(s), wide, 400) },
    { id: "bench-set-size", title: "Mean set size by model", caption: "smaller is more informative at the same coverage", svg: renderChart(benchSetSizeChart(s), wide, 400) },
    { id: "bench-conditional", title: "Conditional coverage by model", caption: "bars: the least-covered true class; dots: size-stratified coverage (the least-covered set size held by at least 10 test items); mean over repeats", svg: renderChart(benchConditionalChart(s), wide, 420) },
    { id: "bench-baselines", title: "Conformal sets beside naive ones, by model", caption: "test coverage at the same α of the conformal sets, top-1, the smallest top-k reaching 1 − α on calibration, and cumulative probability ≥ 1 − α; mean over repeats", svg: renderChart(benchBaselinesChart(s), wide, 420) },
    { id: "bench-calibration", title: "Calibration error: raw probabilities against Venn–Abers beliefs", caption: "ECE over (item, option) pairs of the test splits, mean over the repeats of each model × task", svg: renderChart(benchCalibrationChart(s), wide, 400) },
  ];
}

const sp = (x: Spread, f: (v: number) => string) => `${f(x.mean)} ± ${f(x.sd)}`;
const cellName = (r: BenchRow) => `${short(r.model)} · ${escapeHtml(r.task)} · ${escapeHtml(r.method)} · α ${r.alpha}`;

/** Every cell's conformal sets beside the naive ones at the same α: coverage and mean size, mean ± sd over repeats. */
function baselinesTable(s: BenchSummary): string {
  const names = [...new Set(s.rows.flatMap((r) => r.statistics.baselines.map((b) => b.name)))];
  const body = s.rows.map((r) => `<tr><td>${short(r.model)}</td><td>${escapeHtml(r.task)}</td><td>${escapeHtml(r.method)}</td><td>${r.alpha}</td>${names.map((n) => {
    const b = r.statistics.baselines.find((x) => x.name === n);
    if (!b) return "<td>–</td><td>–</td>";
    const k = b.k ? ` <small>k = ${[...new Set(b.k)].join(", ")}</small>` : "";
    return `<td class=${b.below > 0 ? "bad" : "ok"}>${sp(b.coverage, pct)}${k}</td><td>${sp(b.averageSize, (x) => num(x, 2))}</td>`;
  }).join("")}</tr>`).join("\n");
  return `<table id="bench-baselines-table"><tr><th rowspan=2>model</th><th rowspan=2>task</th><th rowspan=2>method</th><th rowspan=2>α</th>${names.map((n) => `<th colspan=2>${escapeHtml(n)}</th>`).join("")}</tr>
<tr>${names.map(() => "<th>coverage</th><th>mean size</th>").join("")}</tr>
${body}</table>`;
}

/** ECE, Brier and log-loss of the raw probabilities and of the Venn–Abers beliefs, per model × task. */
function calibrationTable(s: BenchSummary): string {
  const f = (x: Spread) => sp(x, (v) => num(v, 4));
  const body = modelTaskRows(s).map((r) => {
    const { raw, vennAbers: va, topLabel } = r.statistics.calibration;
    const vaCells = va ? `<td>${f(va.ece)}</td><td>${f(va.brier)}</td><td>${f(va.logLoss)}</td>` : `<td colspan=3>none (interval answers)</td>`;
    return `<tr><td>${short(r.model)}</td><td>${escapeHtml(r.task)}</td><td>${raw.n}</td><td>${f(raw.ece)}</td><td>${f(raw.brier)}</td><td>${f(raw.logLoss)}</td>${vaCells}<td>${sp(topLabel.accuracy, pct)}</td></tr>`;
  }).join("\n");
  return `<table id="bench-calibration-errors"><tr><th rowspan=2>model</th><th rowspan=2>task</th><th rowspan=2>forecasts</th><th colspan=3>raw probabilities</th><th colspan=3>Venn–Abers beliefs</th><th rowspan=2>top-1 accuracy</th></tr>
<tr><th>ECE</th><th>Brier</th><th>log-loss</th><th>ECE</th><th>Brier</th><th>log-loss</th></tr>
${body}</table>`;
}

/**
 * How much a warning kind undermines a cell's numbers, most severe first: the guarantee failed or never applied;
 * the sets miss strata or hold nothing; the samples are too small to say much. Unknown kinds sit in the middle.
 */
const WARNING_SEVERITY: Record<string, number> = {
  "audit-failed": 0, "no-test": 0, "below-minimum-n": 0,
  "empty-sets": 1,
  "small-calibration": 2, "small-test": 2, "small-audit": 2, "no-audit": 2,
};
const severityOf = (kind: string) => WARNING_SEVERITY[kind] ?? 1;
/** Kinds shown open; the rest are folded under one line (a small suite gave about 60 lines in one list). */
const VISIBLE_WARNING_KINDS = 5;

/**
 * The suite's warnings grouped by kind: one line per kind with the cells it concerns, each cell's own text folded
 * under it; kinds ranked most severe first, then by the number of cells, the surplus past VISIBLE_WARNING_KINDS folded (under-covered strata count as severity 1).
 */
function warningsList(s: BenchSummary): string {
  const kinds = new Map<string, { index: number; text: string; repeats: number; of: number }[]>();
  s.rows.forEach((r, i) => {
    for (const w of r.statistics.warnings) {
      const kind = w.code.replace(/:.*$/, "");
      let cells = kinds.get(kind);
      if (!cells) kinds.set(kind, (cells = []));
      cells.push({ index: i, text: w.text, repeats: w.repeats, of: r.repeats });
    }
  });
  if (kinds.size === 0) return `<p id="bench-warnings" class=ok>No warning.</p>`;
  const ranked = [...kinds].sort(([a, x], [b, y]) => severityOf(a) - severityOf(b) || y.length - x.length || a.localeCompare(b));
  const items = ranked.map(([kind, cells]) => {
    const each = cells.map((c) => `<li><a href="#cell-${c.index}">${cellName(s.rows[c.index]!)}</a>: ${escapeHtml(c.text)} <small>(${c.repeats} of ${c.of} repeats)</small></li>`).join("");
    return `<li data-severity=${severityOf(kind)}><details><summary><b>${escapeHtml(kind.replace(/-/g, " "))}</b> — ${cells.length} of ${s.rows.length} cells</summary><ul>${each}</ul></details></li>`;
  });
  const shown = items.slice(0, VISIBLE_WARNING_KINDS);
  const folded = items.slice(VISIBLE_WARNING_KINDS);
  if (folded.length) {
    shown.push(`<li class=more><details id="bench-warnings-more"><summary>${folded.length} more kind(s) of warning, less severe or in fewer cells</summary><ul>${folded.join("")}</ul></details></li>`);
  }
  return `<ul id="bench-warnings">${shown.join("\n")}</ul>`;
}

/** Each cell's full statistician's section: the run report's tables, over the repeats. */
function cellSections(s: BenchSummary): string {
  return s.rows.map((r, i) => {
    const interval = r.queryType === "interval";
    const o = { suffix: `-${i}`, sizeWord: interval ? "width (levels)" : "set size", answers: interval ? "intervals" : "sets" };
    return `<details id="cell-${i}"${i === 0 ? " open" : ""}><summary><b>${cellName(r)}</b> — coverage ${sp(r.statistics.baselines[0]!.coverage, pct)}, q̂ ${sp(r.statistics.threshold.score, (x) => num(x, 4))}, ${r.statistics.warnings.length} warning(s)</summary>
${statisticsTables(r.statistics, o, 4)}</details>`;
  }).join("\n");
}

/** Failed cells first, so a reader sees what is missing before reading the rows that are there. */
function failuresSection(s: BenchSummary): string {
  const failures = s.failures ?? [];
  if (failures.length === 0) return "";
  const rows = failures.map((f) => `<tr><td>${short(f.model)}</td><td>${escapeHtml(f.task)}</td><td style="text-align:left">${escapeHtml(f.error)}</td></tr>`).join("\n");
  return `<h2 class=bad>Failed cells</h2>
<p>${failures.length} model × task cell(s) have no evidence and no rows. Running the suite again computes only what is missing.</p>
<table id="bench-failures"><tr><th>model</th><th>task</th><th>error</th></tr>
${rows}</table>
`;
}

/** The multiple-choice cells: results, baselines, calibration and warnings. */
function choiceSections(s: BenchSummary): string {
  const rows = s.rows.map((r) => `<tr><td>${short(r.model)}</td><td>${escapeHtml(r.task)}</td><td>${escapeHtml(r.method)}</td><td>${r.alpha}</td>
<td>${pct(r.coverage.mean)} ± ${pct(r.coverage.sd)} <small>(${pct(r.coverage.min)}–${pct(r.coverage.max)})</small></td>
<td class=${r.inBand === r.repeats ? "ok" : "bad"}>${pct(r.band[0])}–${pct(r.band[1])} (${r.inBand}/${r.repeats} inside)</td>
<td>${pct(r.law.mean)} ± ${pct(r.law.sd)}, z = ${num(r.law.z, 2)}</td>
<td>${num(r.meanSetSize)}</td><td>${pct(r.singletonRate)}</td><td>${pct(r.emptyRate)}</td><td>${pct(r.accuracy)}</td>
<td>${num(r.eceRaw)}</td><td>${num(r.eceVennAbers)}</td><td>${r.calibration}/${r.test}</td></tr>`).join("\n");
  return `<h2>Results</h2>
<table><tr><th>model</th><th>task</th><th>method</th><th>α</th><th>coverage (mean ± sd, range)</th><th>finite-sample band (central ${pct(s.rows[0]?.bandLevel ?? 0.999)})</th><th>beta law (mean ± sd)</th><th>mean size</th><th>singletons</th><th>empty</th><th>accuracy</th><th>ECE raw</th><th>ECE Venn–Abers</th><th>cal/test</th></tr>
${rows}</table>
<h2>Conformal sets beside naive ones at the same α</h2>
<p>Top-1: the most probable option; top-k: the smallest k whose top-k sets cover 1 − α of each repeat's calibration split; cumulative: options by decreasing probability until they add up to 1 − α (no calibration). Only the conformal sets carry a finite-sample guarantee, and they are judged by their finite-sample band in the Results table (green there: every repeat inside). Red, for the naive sets: some repeat's Clopper–Pearson 95% interval lies below the target; the conformal row is never marked so, since one 95% interval per repeat falls below the target now and then by chance alone.</p>
${baselinesTable(s)}
<h2>Calibration of the probabilities</h2>
<p>Every (test item, option) pair of each repeat's test split: the model's normalised probability, and the Venn–Abers belief p1 / (1 − p0 + p1) fitted on the repeat's calibration split. ECE over 10 equal-width bins; Brier; log-loss in nats. Mean ± sd over repeats.</p>
${calibrationTable(s)}
<h2>Warnings</h2>
${warningsList(s)}
`;
}

/** Each multiple-choice cell's statistician's tables. */
function cellsPart(s: BenchSummary): string {
  return `<h2>Each cell: threshold, conditional coverage, calibration, baselines</h2>
<p>The run report's tables for every model × task × method × α, as mean ± sd over the ${s.repeats} repeats; a stratum is "under" in a repeat when its Clopper–Pearson 95% interval lies entirely below the target.</p>
${cellSections(s)}
`;
}

export function benchPageOf(s: BenchSummary): string {
  const ev = s.evidence.map((e) => `<tr><td>${short(e.model)}</td><td>${escapeHtml(e.task)}</td><td>${e.accessLevel}</td><td>${e.items}</td><td>${e.hits}</td><td>${e.computed}</td><td>${e.modelCalls}</td>
<td>${num(e.seconds, 1)} s</td><td>${num(e.itemsPerSecond, 1)}</td><td>${num(e.tokensPerSecond, 0)}</td></tr>`).join("\n");
  const figs = benchFigures(s).map((f) => `<figure id="${f.id}"><figcaption><b>${escapeHtml(f.title)}</b> — ${escapeHtml(f.caption)}</figcaption>${f.svg}</figure>`).join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>calibkit bench — ${escapeHtml(s.suite.split("/").pop()!)}</title>
<style>body{font-family:sans-serif;margin:2em;max-width:1400px}table{border-collapse:collapse;font-size:13px;margin:1em 0}
td,th{border:1px solid #ddd;padding:3px 6px;text-align:right}th{background:#f3f4f6}.ok{color:#16a34a}.bad{color:#dc2626}figure{margin:0;border:1px solid #e5e7eb;border-radius:6px;padding:8px}
.figures{display:grid;grid-template-columns:repeat(auto-fill,minmax(660px,1fr));gap:16px}figure svg{max-width:100%;height:auto}
details{margin:1em 0;border-top:1px solid #e5e7eb;padding-top:.5em}table.wide{width:100%}</style></head>
<body><h1>calibkit bench</h1>
${failuresSection(s)}<p>${escapeHtml(s.suite)} — ${s.models.length} model(s) × ${s.tasks.length} task(s) × ${[...s.methods, ...(s.scorers ?? [])].join(", ")} × α ∈ {${s.alphas.join(", ")}}, ${s.repeats} repeats (seed ${s.seed}), ${num(s.totalSeconds, 1)} s in all.
Each repeat is an independent random split${s.rows.length ? `; the finite-sample band is the central ${pct(s.rows[0]!.bandLevel)} of one repeat's coverage under split conformal's beta-binomial law (coverage ~ Beta(k, n + 1 − k), k = ⌈(n+1)(1−α)⌉), and the beta law column gives that law's mean ± sd with the z of the mean over repeats` : ""}.</p>
${s.rows.length ? choiceSections(s) : ""}${generationSection(s)}
<h2>Evidence</h2>
<table><tr><th>model</th><th>task</th><th>level</th><th>items</th><th>cached</th><th>computed</th><th>model calls</th><th>time</th><th>items/s</th><th>tokens/s</th></tr>
${ev}</table>
<h2>Figures</h2>
<div class="figures">
${figs}
</div>
${s.rows.length ? cellsPart(s) : ""}</body></html>
`;
}
