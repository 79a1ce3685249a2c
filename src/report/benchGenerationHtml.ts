// The free-form part of a suite's report: scorers × models side by side — each scorer's ranking of the answers
// (ROC-AUC, PRR), its calibration before and after Venn–Abers, and the guarantee it gives over the repeats.
import type { BenchGenerationRow, BenchSummary } from "./benchSummary.js";
import { barsHeight, benchScorerAucChart, benchScorerRiskChart } from "./charts/benchGeneration.js";
import { type Figure, renderChart } from "./charts/chart.js";
import { escapeHtml } from "./escape.js";
import { GUARANTEE_HEADERS, guaranteeCells, guaranteeNote } from "./scorerGuaranteeHtml.js";

export const GENERATION_FIGURE_IDS = ["bench-scorer-roc-auc", "bench-scorer-risk"] as const;

const num = (x: number, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : "–");
const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : "–");
const short = (m: string) => escapeHtml(m.replace(/\/+$/, "").replace(/^(https?:\/\/.*)\/v1$/i, "$1").split("/").pop()!);

export function generationFigures(s: BenchSummary): Figure[] {
  const rows = s.generation ?? [];
  if (rows.length === 0) return [];
  const scorers = new Set(rows.map((r) => `${r.task}${r.scorer}`)).size;
  const gates = rows.filter((r) => r.queryType === "gate");
  const models = new Set(rows.map((r) => r.model)).size;
  return [
    { id: "bench-scorer-roc-auc", title: "ROC-AUC by scorer and model", caption: "how well each score ranks right answers above wrong ones, over every item of the task; 0.5 is chance", svg: renderChart(benchScorerAucChart(s), 660, barsHeight(scorers, models)) },
    ...(gates.length ? [{
      id: "bench-scorer-risk", title: "Realized risk of each scorer's gate", caption: `approved wrong answers / test items, mean over ${s.repeats} repeats, against the target α`,
      svg: renderChart(benchScorerRiskChart(s), 660, barsHeight(new Set(gates.map((r) => `${r.task}${r.scorer}${r.alpha}`)).size, models)),
    }] : []),
  ];
}

const attrs = (r: BenchGenerationRow) => `data-model="${short(r.model)}" data-task="${escapeHtml(r.task)}" data-scorer="${escapeHtml(r.scorer)}" data-alpha="${r.alpha ?? ""}"`;

/** Rows scorer, columns model: ROC-AUC and PRR side by side, one table per task. */
function sideBySide(s: BenchSummary, rows: BenchGenerationRow[]): string {
  const models = s.models.filter((m) => rows.some((r) => r.model === m));
  return [...new Set(rows.map((r) => r.task))].map((task) => {
    const scorers = [...new Set(rows.filter((r) => r.task === task).map((r) => r.scorer))];
    const body = scorers.map((sc) => `<tr><td>${escapeHtml(sc)}</td>${models.map((m) => {
      const r = rows.find((x) => x.task === task && x.model === m && x.scorer === sc);
      return r ? `<td>${num(r.rocAuc)}</td><td>${num(r.prr)}</td>` : "<td>–</td><td>–</td>";
    }).join("")}</tr>`).join("\n");
    return `<table class="bench-scorers-by-model" data-task="${escapeHtml(task)}"><tr><th rowspan=2>${escapeHtml(task)}: scorer</th>${models.map((m) => `<th colspan=2>${short(m)}</th>`).join("")}</tr>
<tr>${models.map(() => "<th>ROC-AUC</th><th>PRR</th>").join("")}</tr>
${body}</table>`;
  }).join("\n");
}

export function generationSection(s: BenchSummary): string {
  const rows = s.generation ?? [];
  if (rows.length === 0 && !(s.skippedScorers ?? []).length) return "";
  const body = rows.map((r) => `<tr ${attrs(r)}><td>${short(r.model)}</td><td>${escapeHtml(r.task)}</td><td>${escapeHtml(r.queryType)}</td><td>${escapeHtml(r.scorer)}</td><td>${escapeHtml(r.level)}</td><td>${r.alpha ?? "–"}</td>
<td data-field="accuracy">${pct(r.accuracy)}</td><td data-field="roc-auc">${num(r.rocAuc)}</td><td data-field="prr">${num(r.prr)}</td><td data-field="rcc-auc">${num(r.rccAuc)}</td>${guaranteeCells(r.guarantee)}</tr>`).join("\n");
  const gate = rows.find((r) => r.queryType === "gate");
  const belief = rows.find((r) => r.queryType === "belief");
  const skipped = (s.skippedScorers ?? []).map((k) => `<li>${short(k.model)} · ${escapeHtml(k.task)}: no ${escapeHtml(k.scorer)} — it ${escapeHtml(k.reason)}</li>`).join("");
  return `<h2>Free-form answers: scorers × models</h2>
<p>Each model's greedy answer and samples are generated, graded and scored once per task (the evidence cache); every scorer and every α reads those same answers.
Accuracy: right greedy answers over the task's items (${escapeHtml([...new Set(rows.map((r) => r.grader))].join("; "))}). ROC-AUC and PRR rank right answers above wrong ones over every item
(0.5 and 0 are chance); the risk–coverage area (lm-polygraph's rcc-auc) is the mean share of wrong answers among the most confident ones (lower is better).</p>
${gate ? guaranteeNote(gate.guarantee) : ""}${belief ? guaranteeNote(belief.guarantee) : ""}
${sideBySide(s, rows)}
<table id="bench-generation"><tr><th>model</th><th>task</th><th>query</th><th>scorer</th><th>level</th><th>α</th><th>accuracy</th><th>ROC-AUC</th><th>PRR</th><th>risk–coverage area</th>${GUARANTEE_HEADERS.map((h) => `<th>${escapeHtml(h)}</th>`).join("")}</tr>
${body}</table>
${skipped ? `<p>Scorers listed but not computed:</p><ul id="bench-skipped-scorers">${skipped}</ul>` : ""}`;
}
