// The report page of a typed run (belief, gate, claim, judge, route): the guarantee's measured quantity against
// its target and band, the rates, the reliability diagram for beliefs, the cross-check, the setup.
import { renderChart } from "./charts/chart.js";
import { queryBandChart } from "./charts/queryBand.js";
import { reliabilityChart } from "./charts/reliability.js";
import { generationHtml } from "./generationHtml.js";
import { escapeHtml } from "./html.js";
import type { QueryRunSummary } from "./querySummary.js";

const num = (x: number, d = 4) => (Number.isFinite(x) ? x.toFixed(d) : "—");
const table = (rows: [string, string][]) => `<table>${rows.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${v}</td></tr>`).join("")}</table>`;

export function queryPageOf(s: QueryRunSummary): string {
  const q = s.section;
  const c = s.crossCheck;
  const unchecked = Object.values(c.unchecked).reduce((a, b) => a + b, 0);
  const headline = table([
    ["guarantee", escapeHtml(q.guarantee)],
    [q.quantity, `<b>${num(q.value)}</b> over ${q.n} test items (target ${num(q.target)}; band ${num(q.band[0])}–${num(q.band[1])}, ${escapeHtml(q.bandNote)})${q.inBand ? " <span class=ok>inside</span>" : " <span class=bad>outside</span>"}`],
    ...q.rates.map((r): [string, string] => [r.name, `${num(r.value)}${r.note ? ` — ${escapeHtml(r.note)}` : ""}`]),
    ...(q.batches ? [[`realized FDR per batch of ${q.batches.size}`, q.batches.fdr.map((x) => num(x)).join(", ")] as [string, string]] : []),
    ...(q.calibrationErrors ? [["calibration error (ECE / MCE)", `${num(q.calibrationErrors.expected)} / ${num(q.calibrationErrors.maximum)}`] as [string, string]] : []),
    ["cross-check", `${c.disagreements.length === 0 ? "<span class=ok>0 disagreements</span>" : `<span class=bad>${c.disagreements.length} disagreements</span>`}, ${unchecked} unchecked, over ${c.answers} answers and ${c.fields} fields`],
  ]);
  const disagreements = c.disagreements.length === 0 ? "" : `<table class="wide"><tr><th>query</th><th>field</th><th>service</th><th>local</th></tr>${c.disagreements
    .slice(0, 200).map((d) => `<tr><td>${escapeHtml(d.query)}</td><td>${escapeHtml(d.field)}</td><td><code>${escapeHtml(JSON.stringify(d.service))}</code></td><td><code>${escapeHtml(JSON.stringify(d.local))}</code></td></tr>`).join("")}</table>`;
  const reasons = c.uncheckedReasons.length === 0 ? "" : `<ul>${c.uncheckedReasons.slice(0, 50).map((u) => `<li>${escapeHtml(u.query)}: ${escapeHtml(u.reason)}</li>`).join("")}</ul>`;
  // Every typed run has a figure: the reliability diagram of beliefs, else the measured quantity in its band.
  const figure = q.reliability && q.reliability.pairs > 0
    ? `<h2>Reliability of the Venn–Abers beliefs</h2><figure id="reliability">${renderChart(reliabilityChart({ reliability: q.reliability }))}</figure>`
    : `<h2>${escapeHtml(q.quantity)} against its band and target</h2><figure id="quantity-band">${renderChart(queryBandChart(q), 900, 120 + 40 * (q.rates.length + 1))}</figure>`;
  // A heading over nothing said nothing: the agreement in words when there is no disagreement to list.
  const agreed = disagreements !== "" || reasons !== "" ? ""
    : unchecked === 0 ? `<p>All ${c.answers} answers (${c.fields} fields) were recomputed by the local conformal engine and agree with the service's.</p>`
    : `<p>No disagreement over ${c.answers} answers; ${unchecked} fields could not be checked.</p>`;
  const setup = table([
    ["model", `${escapeHtml(s.model.path)} (${escapeHtml(s.model.backend)}, ${escapeHtml(s.model.accessLevel)})`],
    ...(s.source ? [["evidence", `lm-eval --log_samples file ${escapeHtml(s.source.lmEvalSamples)} (task ${escapeHtml(s.source.task)}) from ${s.source.lmEvalResults ? escapeHtml(s.source.lmEvalResults) : "no results file"}; no model loaded`] as [string, string]] : []),
    ["dataset", `${escapeHtml(s.dataset.path)} — ${s.dataset.items} ${escapeHtml(s.dataset.kind)} items, split seed ${s.dataset.seed}`],
    ["split", `calibration ${s.split.calibration}, test ${s.split.test}`],
    ["profile", `${escapeHtml(s.profile.name)}: α = ${s.profile.alpha}, n = ${s.profile.n}, ${escapeHtml(s.profile.status)}`],
    ...(s.stages.length ? [["stages", s.stages.map((st) => `${escapeHtml(st.name)} (${escapeHtml(st.url)}, ${st.costPerCall}¢/call)`).join(", ")] as [string, string]] : []),
    ["service", `${escapeHtml(s.service.url)}${s.service.embedded ? " (embedded, loopback)" : ""}`],
    ...(s.evidenceCache ? [["evidence", s.evidenceCache.dir === null ? `${s.evidenceCache.computed} rows computed, no cache (--no-cache), ${s.evidenceCache.modelCalls} model calls` : `${s.evidenceCache.hits} rows from the cache in ${escapeHtml(s.evidenceCache.dir)}, ${s.evidenceCache.computed} computed, ${s.evidenceCache.modelCalls} model calls`] as [string, string]] : []),
    ["time", `${num(s.totalSeconds, 1)} s — ${s.timings.map((x) => `${escapeHtml(x.step)} ${num(x.seconds, 1)} s`).join(", ")}`],
  ]);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>calibkit run — ${escapeHtml(s.queryType)} — ${escapeHtml(s.profile.name)}</title>
<style>body{font-family:system-ui,sans-serif;margin:24px auto;max-width:1100px;color:#111827;padding:0 16px}
table{border-collapse:collapse;margin:8px 0}th,td{border-bottom:1px solid #e5e7eb;padding:4px 10px;text-align:left;vertical-align:top}
table.wide{width:100%}.ok{color:#16a34a;font-weight:600}.bad{color:#dc2626;font-weight:600}figure svg{max-width:100%;height:auto}</style>
</head><body>
<h1>calibkit run: ${escapeHtml(s.queryType)} queries</h1>
${headline}
${figure}
${q.generation ? generationHtml(q.generation) : ""}
<h2>Cross-check against the local conformal engine</h2>
${disagreements}${reasons}${agreed}
<h2>Setup</h2>
${setup}
<footer>calibkit ${escapeHtml(s.calibkit)} — ${escapeHtml(s.createdAt)}; the numbers are in summary.json beside this file.</footer>
</body></html>
`;
}
