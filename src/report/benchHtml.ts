// The comparative report of a suite: one self-contained page, tables per model × task × method × α and
// the figures that put the models side by side.
import { benchCalibrationChart, benchCoverageChart, benchSetSizeChart, benchThroughputChart } from "./charts/bench.js";
import { type Figure, renderChart } from "./charts/chart.js";
import type { BenchSummary } from "./benchSummary.js";
import { escapeHtml } from "./escape.js";

export const BENCH_FIGURE_IDS = ["bench-coverage", "bench-set-size", "bench-calibration", "bench-throughput"] as const;

const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : "–");
const num = (x: number | null, d = 3) => (x === null || !Number.isFinite(x) ? "–" : x.toFixed(d));
const short = (m: string) => escapeHtml(m.split("/").pop()!);

export function benchFigures(s: BenchSummary): Figure[] {
  const wide = Math.max(640, 60 * new Set(s.rows.map((r) => `${r.task}${r.method}${r.alpha}`)).size);
  return [
    { id: "bench-coverage", title: "Coverage by model", caption: `mean test coverage over ${s.repeats} repeats against the target 1 − α`, svg: renderChart(benchCoverageChart(s), wide, 400) },
    { id: "bench-set-size", title: "Mean set size by model", caption: "smaller is more informative at the same coverage", svg: renderChart(benchSetSizeChart(s), wide, 400) },
    { id: "bench-calibration", title: "Calibration error: raw probabilities against Venn–Abers beliefs", caption: "ECE over (item, option) pairs of the test splits, first repeat of each model × task", svg: renderChart(benchCalibrationChart(s), wide, 400) },
    { id: "bench-throughput", title: "Evidence throughput", caption: "items per second of the evidence step (rows read from the cache count too)", svg: renderChart(benchThroughputChart(s)) },
  ];
}

export function benchPageOf(s: BenchSummary): string {
  const rows = s.rows.map((r) => `<tr><td>${short(r.model)}</td><td>${escapeHtml(r.task)}</td><td>${escapeHtml(r.method)}</td><td>${r.alpha}</td>
<td>${pct(r.coverage.mean)} ± ${pct(r.coverage.sd)} <small>(${pct(r.coverage.min)}–${pct(r.coverage.max)})</small></td>
<td class=${r.inBand === r.repeats ? "ok" : "bad"}>${pct(r.band[0])}–${pct(r.band[1])} (${r.inBand}/${r.repeats} inside)</td>
<td>${pct(r.law.mean)} ± ${pct(r.law.sd)}, z = ${num(r.law.z, 2)}</td>
<td>${num(r.meanSetSize)}</td><td>${pct(r.singletonRate)}</td><td>${pct(r.emptyRate)}</td><td>${pct(r.accuracy)}</td>
<td>${num(r.eceRaw)}</td><td>${num(r.eceVennAbers)}</td><td>${r.calibration}/${r.test}</td></tr>`).join("\n");
  const ev = s.evidence.map((e) => `<tr><td>${short(e.model)}</td><td>${escapeHtml(e.task)}</td><td>${e.accessLevel}</td><td>${e.items}</td><td>${e.hits}</td><td>${e.computed}</td><td>${e.modelCalls}</td>
<td>${num(e.seconds, 1)} s</td><td>${num(e.itemsPerSecond, 1)}</td><td>${num(e.tokensPerSecond, 0)}</td></tr>`).join("\n");
  const figs = benchFigures(s).map((f) => `<figure id="${f.id}"><figcaption><b>${escapeHtml(f.title)}</b> — ${escapeHtml(f.caption)}</figcaption>${f.svg}</figure>`).join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>calibkit bench — ${escapeHtml(s.suite.split("/").pop()!)}</title>
<style>body{font-family:sans-serif;margin:2em;max-width:1400px}table{border-collapse:collapse;font-size:13px;margin:1em 0}
td,th{border:1px solid #ddd;padding:3px 6px;text-align:right}th{background:#f3f4f6}.ok{color:#16a34a}.bad{color:#dc2626}figure{margin:2em 0}</style></head>
<body><h1>calibkit bench</h1>
<p>${escapeHtml(s.suite)} — ${s.models.length} model(s) × ${s.tasks.length} task(s) × ${s.methods.join(", ")} × α ∈ {${s.alphas.join(", ")}}, ${s.repeats} repeats (seed ${s.seed}), ${num(s.totalSeconds, 1)} s in all.
Each repeat is an independent random split; the band is the central ${pct(s.rows[0]?.bandLevel ?? 0.999)} of one repeat's coverage under split conformal's beta-binomial law.</p>
<h2>Results</h2>
<table><tr><th>model</th><th>task</th><th>method</th><th>α</th><th>coverage (mean ± sd, range)</th><th>finite-sample band</th><th>beta law (mean ± sd)</th><th>mean size</th><th>singletons</th><th>empty</th><th>accuracy</th><th>ECE raw</th><th>ECE Venn–Abers</th><th>cal/test</th></tr>
${rows}</table>
<h2>Evidence</h2>
<table><tr><th>model</th><th>task</th><th>level</th><th>items</th><th>cached</th><th>computed</th><th>model calls</th><th>time</th><th>items/s</th><th>tokens/s</th></tr>
${ev}</table>
<h2>Figures</h2>
${figs}
</body></html>
`;
}
