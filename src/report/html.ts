// The report page: inline CSS, the figures as inline SVG, and tables of the figures behind them.
// No script and no external resource, so it opens offline and prints as it looks.
import type { Figure } from "./charts/chart.js";
import type { RunSummary } from "./summary.js";

import { guaranteeStatement } from "../api/index.js";
import { escapeHtml } from "./escape.js";
import { statisticsSection } from "./statisticsSection.js";

export { escapeHtml };

const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : "—");
const num = (x: number, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : "—");

function table(rows: [string, string][]): string {
  return `<table>${rows.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${v}</td></tr>`).join("")}</table>`;
}

function crossCheckSection(s: RunSummary): string {
  const c = s.crossCheck;
  const ok = c.disagreements.length === 0;
  const head = `<p class="${ok ? "ok" : "bad"}">${ok ? "✔ 0 disagreements" : `✘ ${c.disagreements.length} disagreements`}
    over ${c.answers} answers and ${c.fields} compared fields (numbers to 1e-9).</p>`;
  if (ok) return head;
  const rows = c.disagreements
    .slice(0, 200)
    .map((d) => `<tr><td>${escapeHtml(d.query)}</td><td>${escapeHtml(d.field)}</td><td><code>${escapeHtml(JSON.stringify(d.service))}</code></td><td><code>${escapeHtml(JSON.stringify(d.local))}</code></td></tr>`)
    .join("");
  const more = c.disagreements.length > 200 ? `<p>… and ${c.disagreements.length - 200} more in summary.json.</p>` : "";
  return `${head}<table class="wide"><tr><th>query</th><th>field</th><th>service</th><th>local</th></tr>${rows}</table>${more}`;
}

function alertsSection(s: RunSummary): string {
  if (s.monitor.alerts.length === 0) return "<p>No alert: the e-value stayed below the threshold.</p>";
  return `<table class="wide"><tr><th>n</th><th>severity</th><th>e-value</th><th>message</th></tr>${s.monitor.alerts
    .map((a) => `<tr><td>${a.n}</td><td>${escapeHtml(a.severity)}</td><td>${num(a.e_value, 2)}</td><td>${escapeHtml(a.message)}</td></tr>`)
    .join("")}</table>`;
}

export function pageOf(s: RunSummary, figures: Figure[]): string {
  const t = s.test;
  const inBand = t.coverage >= t.band[0] && t.coverage <= t.band[1];
  const headline = table([
    ["guarantee", escapeHtml(guaranteeStatement(s.queryType ?? "set", "coverage", { alpha: s.profile.alpha }))],
    ["measured coverage (test)", `<b>${pct(t.coverage)}</b> of ${t.n} (target ${pct(t.target)}; expected range ${pct(t.band[0])}–${pct(t.band[1])}${s.statistics ? `, the central ${pct(s.statistics.bandLevel)} of its beta-binomial law` : ""}${inBand ? "" : " — <span class=bad>outside</span>"})`],
    [s.queryType === "interval" ? "average interval size" : "average set size", `<b>${num(t.averageSetSize)}</b> ${s.queryType === "interval" ? "levels" : "options"}`],
    ["cross-check", s.crossCheck.disagreements.length === 0 ? `<span class=ok>0 disagreements</span>` : `<span class=bad>${s.crossCheck.disagreements.length} disagreements</span>`],
    ["model accuracy (top-1)", pct(t.accuracy)],
    ["audit", `${escapeHtml(s.audit.result)}: ${pct(s.audit.realizedCoverage)} of ${s.audit.sample}, 95% CI ${pct(s.audit.ci[0])}–${pct(s.audit.ci[1])}`],
    ["monitor", `${escapeHtml(s.monitor.status)}, final e-value ${num(s.monitor.path.at(-1)?.eValue ?? 1, 3)} (alarm at ${num(s.monitor.threshold, 0)})`],
  ]);
  const setup = table([
    ["model", `${escapeHtml(s.model.path)} (${escapeHtml(s.model.backend)}, access level ${escapeHtml(s.model.accessLevel)})`],
    ["dataset", `${escapeHtml(s.dataset.path)} — ${s.dataset.items} ${escapeHtml(s.dataset.kind)} items, split seed ${s.dataset.seed}`],
    ["split", `calibration ${s.split.calibration}, test ${s.split.test}, audit ${s.split.audit}, monitor ${s.split.monitor}`],
    ["profile", `${escapeHtml(s.profile.name)}: ${escapeHtml(s.profile.method)}, α = ${s.profile.alpha}, n = ${s.profile.n} (minimum ${s.profile.minimumN}, recommended ${s.profile.recommendedN}), ${escapeHtml(s.profile.status)}`],
    ["service", `${escapeHtml(s.service.url)}${s.service.embedded ? " (embedded, loopback)" : ""}`],
    ...(s.source ? [["evidence", `lm-eval --log_samples file ${escapeHtml(s.source.lmEvalSamples)} (task ${escapeHtml(s.source.task)}), model ${escapeHtml(s.source.model)}${s.source.modelArgs ? ` (${escapeHtml(s.source.modelArgs)})` : ""} from ${s.source.lmEvalResults ? escapeHtml(s.source.lmEvalResults) : "no results file"}; no model loaded`] as [string, string]] : []),
    ...(s.profile.setPooling && s.profile.setPooling !== "exact" ? [["option counts", s.profile.setPooling === "pooled" ? "one calibration across option counts (coverage holds over all items together; see By option count)" : "calibrated per option count (Mondrian: coverage holds for each count)"] as [string, string]] : []),
    ...(s.evidenceCache && !s.source ? [["evidence", s.evidenceCache.dir === null ? `${s.evidenceCache.computed} rows computed, no cache (--no-cache), ${s.evidenceCache.modelCalls} model calls` : `${s.evidenceCache.hits} rows from the cache in ${escapeHtml(s.evidenceCache.dir)}, ${s.evidenceCache.computed} computed, ${s.evidenceCache.modelCalls} model calls`] as [string, string]] : []),
    ["time", `${num(s.totalSeconds, 1)} s in all — ${s.timings.map((x) => `${escapeHtml(x.step)} ${num(x.seconds, 1)} s${x.items ? ` (${x.items})` : ""}`).join(", ")}`],
  ]);
  const figs = figures
    .map((f) => `<figure id="${f.id}"><figcaption><b>${escapeHtml(f.title)}</b> — ${escapeHtml(f.caption)}</figcaption>${f.svg}</figure>`)
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>calibkit run — ${escapeHtml(s.profile.name)}</title>
<style>
body{font-family:system-ui,sans-serif;margin:24px auto;max-width:1340px;color:#111827;padding:0 16px}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:28px}h3{font-size:1rem;margin-top:16px}
table{border-collapse:collapse;margin:8px 0}th,td{border-bottom:1px solid #e5e7eb;padding:4px 10px;text-align:left;vertical-align:top}
th{color:#374151;font-weight:600}table.wide{width:100%}code{font-size:.85em}
.ok{color:#16a34a;font-weight:600}.bad{color:#dc2626;font-weight:600}
.figures{display:grid;grid-template-columns:repeat(auto-fill,minmax(660px,1fr));gap:16px}
figure{margin:0;border:1px solid #e5e7eb;border-radius:6px;padding:8px}figcaption{font-size:.9rem;margin-bottom:4px}
figure svg{max-width:100%;height:auto}
footer{margin-top:32px;color:#6b7280;font-size:.85rem}
</style></head><body>
<h1>calibkit run: calibrated answers from ${escapeHtml(s.model.path.split(/[\\/]/).at(-1) ?? s.model.path)}</h1>
${headline}
<h2>Figures</h2>
<div class="figures">
${figs}
</div>
${statisticsSection(s)}
<h2>Cross-check against the local conformal engine</h2>
${crossCheckSection(s)}
<h2>Monitor alerts</h2>
${alertsSection(s)}
<h2>Setup</h2>
${setup}
<footer>calibkit ${escapeHtml(s.calibkit)} — ${escapeHtml(s.createdAt)}. The numbers behind every figure are in summary.json beside this file.</footer>
</body></html>
`;
}
