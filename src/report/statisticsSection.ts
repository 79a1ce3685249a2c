// The statistician's tables of the report: threshold and set rates, coverage by class, set size and
// group, calibration errors of the raw probabilities beside the Venn–Abers beliefs, baseline sets, and
// warnings. Each table carries an id so tests and links can find it.
import { escapeHtml } from "./escape.js";
import type { CoverageStratum, ForecastCalibration, RunStatistics } from "./runStatistics.js";
import type { RunSummary } from "./summary.js";

const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : "—");
const num = (x: number, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : "—");
const range = (ci: [number, number]) => `${pct(ci[0])}–${pct(ci[1])}`;

function strataTable(id: string, head: string, rows: CoverageStratum[], target: number, sizeWord: string): string {
  if (rows.length === 0) return `<p id="${id}">No ${escapeHtml(head)} on this dataset.</p>`;
  const body = rows
    .map((r) => {
      const flag = r.ci[1] < target ? ` <span class=bad>under</span>` : "";
      return `<tr><td>${escapeHtml(r.key)}</td><td>${r.n}</td><td>${pct(r.coverage)}${flag}</td><td>${range(r.ci)}</td><td>${num(r.averageSize, 2)}</td></tr>`;
    })
    .join("");
  return `<table class="wide" id="${id}"><tr><th>${escapeHtml(head)}</th><th>test items</th><th>coverage</th><th>95% interval</th><th>mean ${sizeWord}</th></tr>${body}</table>`;
}

function calibrationTable(c: RunStatistics["calibration"]): string {
  const row = (name: string, f: ForecastCalibration | null, what: string) =>
    f ? `<tr><th>${name}</th><td>${f.n}</td><td>${num(f.ece, 4)}</td><td>${num(f.brier, 4)}</td><td>${num(f.logLoss, 4)}</td><td>${what}</td></tr>`
      : `<tr><th>${name}</th><td colspan="5">none: interval answers carry no Venn–Abers beliefs</td></tr>`;
  return `<table class="wide" id="calibration-errors"><tr><th></th><th>forecasts</th><th>ECE</th><th>Brier</th><th>log-loss</th><th>what is forecast</th></tr>
${row("raw probabilities", c.raw, "each (test item, option) pair: the model's normalised probability that the option is gold")}
${row("Venn–Abers beliefs", c.vennAbers, "the same pairs: the service's belief p1 / (1 − p0 + p1)")}
${row("top-1 confidence", c.topLabel, `the model's most probable option (accuracy ${pct(c.topLabel.accuracy)}, mean confidence ${pct(c.topLabel.confidence)})`)}
</table>`;
}

function baselinesTable(st: RunStatistics, sizeWord: string): string {
  const body = st.baselines
    .map((b) => `<tr><td>${escapeHtml(b.name)}${b.guaranteed ? " <span class=ok>guaranteed</span>" : ""}</td><td>${pct(b.coverage)}${b.ci[1] < st.target ? " <span class=bad>below target</span>" : ""}</td><td>${range(b.ci)}</td><td>${num(b.averageSize, 3)}</td><td>${escapeHtml(b.rule)}</td></tr>`)
    .join("");
  return `<table class="wide" id="baselines"><tr><th>sets</th><th>coverage</th><th>95% interval</th><th>mean ${sizeWord}</th><th>how they are made</th></tr>${body}</table>`;
}

export function statisticsSection(s: RunSummary): string {
  const st = s.statistics;
  if (!st) return "";
  const sizeWord = s.queryType === "interval" ? "width (levels)" : "set size";
  const warnings = st.warnings.length
    ? `<ul id="warnings">${st.warnings.map((w) => `<li class=bad>${escapeHtml(w)}</li>`).join("")}</ul>`
    : `<p id="warnings" class=ok>No warning.</p>`;
  const t = st.threshold;
  const facts = `<table id="threshold">
<tr><th>calibrated threshold q̂</th><td><b>${Number.isFinite(t.score) ? num(t.score, 4) : "+∞"}</b>: the ${t.k}-th smallest of ${t.n} ${escapeHtml(t.method)} calibration scores (k = ⌈(n+1)(1−α)⌉); ${escapeHtml(t.rule)}</td></tr>
<tr><th>empty / singleton / full</th><td>${pct(st.rates.empty)} / ${pct(st.rates.singleton)} / ${pct(st.rates.full)} of ${st.rates.n} test answers</td></tr>
<tr><th>size-stratified coverage</th><td>${pct(st.sizeStratifiedCoverage)}: the lowest coverage over ${sizeWord}s held by at least 10 test items</td></tr>
<tr><th>coverage bands</th><td>central ${pct(st.bandLevel)} range of the beta-binomial law of split-conformal coverage; other intervals are Clopper–Pearson 95%</td></tr>
</table>`;
  return `<h2>Warnings</h2>
${warnings}
<h2>Threshold and answers</h2>
${facts}
<h2>Conditional coverage</h2>
<h3>By true class</h3>
${strataTable("coverage-by-class", "class", st.coverageByClass, st.target, sizeWord)}
<h3>By ${s.queryType === "interval" ? "interval width" : "set size"}</h3>
${strataTable("coverage-by-size", sizeWord, st.coverageBySize, st.target, sizeWord)}
<h3>By group</h3>
${strataTable("coverage-by-group", "group", st.coverageByGroup, st.target, sizeWord)}
<h2>Calibration of the probabilities</h2>
${calibrationTable(st.calibration)}
<p>ECE over 10 equal-width bins; Brier score and log-loss (nats, forecasts clipped to [1e-15, 1 − 1e-15]) per forecast. Lower is better for all three.</p>
<h2>Conformal sets beside naive ones, at α = ${st.alpha}</h2>
${baselinesTable(st, sizeWord)}
`;
}
