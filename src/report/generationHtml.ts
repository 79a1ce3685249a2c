// What a free-form run's report adds: the task's grader and the scorer calibrated on, every scorer's ranking
// (ROC-AUC, PRR, risk–coverage area) and calibration (ECE before and after Venn–Abers), and the risk–coverage curves.
import { renderChart } from "./charts/chart.js";
import { riskCoverageChart } from "./charts/riskCoverage.js";
import { escapeHtml } from "./html.js";
import type { GenerationSection } from "./querySummary.js";
import { GUARANTEE_HEADERS, guaranteeCells, guaranteeNote } from "./scorerGuaranteeHtml.js";

const num = (x: number, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : "—");

export function generationHtml(g: GenerationSection): string {
  const ranked = [...g.scorers].sort((a, b) => (b.prr || -Infinity) - (a.prr || -Infinity));
  const rows = ranked.map((s) =>
    `<tr data-scorer="${escapeHtml(s.scorer)}"${s.scorer === g.scorer ? " class=chosen" : ""}><td>${escapeHtml(s.scorer)}${s.scorer === g.scorer ? " (calibrated)" : ""}</td><td>${escapeHtml(s.level)}</td><td>${s.n}</td>` +
    `<td>${num(s.rocAuc)}</td><td>${num(s.prr)}</td><td>${num(s.rccAuc)}</td><td>${num(s.eceBefore)}</td><td>${num(s.eceAfter)}</td></tr>`).join("");
  return `<h2>Free-form answers</h2>
<p>Task <b>${escapeHtml(g.task)}</b>, graded by <b>${escapeHtml(g.grader)}</b>; greedy answer and ${g.samples} samples
(${escapeHtml(Object.entries(g.sampling).map(([k, v]) => `${k} ${v}`).join(", "))}); the evidence is <b>${escapeHtml(g.scorer)}</b>${g.scorers.some((x) => x.scorer === g.scorer) ? "'s confidence" : ""}.</p>
<table class="wide"><tr><th>scorer (lm-polygraph's name)</th><th>level</th><th>n</th><th>ROC-AUC</th><th>PRR</th><th>risk–coverage area</th><th>ECE before Venn–Abers</th><th>ECE after</th></tr>${rows}</table>
<p>ROC-AUC and PRR: higher ranks right answers above wrong ones better (0.5 and 0 are chance); the risk–coverage area
is the mean share of wrong answers among the most confident ones (lower is better); ECE is measured on the test split,
after a Venn–Abers fit on the calibration split.</p>
${guaranteeSection(g, ranked)}
<h2>Risk–coverage</h2><figure id="risk-coverage">${renderChart(riskCoverageChart(g))}</figure>
<details id="risk-coverage-points"><summary>Every scorer's risk–coverage curve, as numbers</summary>
<table class="wide"><tr><th>scorer</th><th>coverage → risk</th></tr>${ranked.map((s) =>
  `<tr data-scorer="${escapeHtml(s.scorer)}"><td>${escapeHtml(s.scorer)}</td><td>${s.riskCoverage.coverage.map((c, k) => `${num(c, 2)}→${num(s.riskCoverage.risk[k]!, 3)}`).join(" ")}</td></tr>`).join("")}</table></details>`;
}

/** Each scorer through the run's guarantee over repeated splits (absent from summaries written before it, and from claim runs). */
function guaranteeSection(g: GenerationSection, ranked: GenerationSection["scorers"]): string {
  const first = ranked.find((s) => s.guarantee)?.guarantee;
  if (!first) return "";
  const rows = ranked.map((s) => `<tr data-scorer="${escapeHtml(s.scorer)}"${s.scorer === g.scorer ? " class=chosen" : ""}><td>${escapeHtml(s.scorer)}</td>${guaranteeCells(s.guarantee)}</tr>`).join("");
  return `<h2>Each scorer's guarantee over ${first.repeats} repeats</h2>
${guaranteeNote(first)}
<table class="wide" id="scorer-guarantees"><tr><th>scorer</th>${GUARANTEE_HEADERS.map((h) => `<th>${escapeHtml(h)}</th>`).join("")}</tr>${rows}</table>`;
}
