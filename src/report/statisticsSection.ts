// The statistician's tables of both reports: threshold and set rates, coverage by class, set size and
// group, calibration errors of the raw probabilities beside the Venn–Abers beliefs, baseline sets, and
// warnings. A run is one repeat; a suite cell shows mean ± sd over its repeats. Each table carries an id
// (with the cell's suffix in a suite) so tests and links can find it.
import { escapeHtml } from "./escape.js";
import { overRepeats, type CellStatistics, type ForecastOverRepeats, type Spread, type StratumOverRepeats } from "./repeatStatistics.js";
import type { RunSummary } from "./summary.js";

const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : "—");
const num = (x: number, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : "—");
const range = (ci: [number, number]) => `${pct(ci[0])}–${pct(ci[1])}`;

export interface TablesOptions {
  /** Appended to every id ("" in a run's report, "-<cell>" in a suite's). */
  suffix: string;
  /** "set size" or "width (levels)". */
  sizeWord: string;
  /** "sets" or "intervals". */
  answers: string;
}

/** A value of one repeat as it is; over several, mean ± sd. */
const over = (cs: CellStatistics, x: Spread, f: (v: number) => string) => (cs.repeats === 1 ? f(x.mean) : `${f(x.mean)} ± ${f(x.sd)}`);

function strataTable(cs: CellStatistics, id: string, head: string, rows: StratumOverRepeats[], o: TablesOptions): string {
  if (rows.length === 0) return `<p id="${id}${o.suffix}">No ${escapeHtml(head)} on this dataset.</p>`;
  const one = cs.repeats === 1;
  const body = rows
    .map((r) => {
      const flag = r.under > 0 ? ` <span class=bad>under</span>` : "";
      const spread = one ? range(r.ci!) : `${pct(r.coverage.min)}–${pct(r.coverage.max)}</td><td>${r.under}/${r.repeats}`;
      return `<tr><td>${escapeHtml(r.key)}</td><td>${one ? r.n : num(r.n, 1)}</td><td>${over(cs, r.coverage, pct)}${flag}</td><td>${spread}</td><td>${num(r.averageSize, 2)}</td></tr>`;
    })
    .join("");
  const heads = one
    ? "<th>test items</th><th>coverage</th><th>95% interval</th>"
    : "<th>test items per repeat</th><th>coverage (mean ± sd)</th><th>range over repeats</th><th>repeats under target (95% interval)</th>";
  return `<table class="wide" id="${id}${o.suffix}"><tr><th>${escapeHtml(head)}</th>${heads}<th>mean ${o.sizeWord}</th></tr>${body}</table>`;
}

function calibrationTable(cs: CellStatistics, o: TablesOptions): string {
  const c = cs.calibration;
  const row = (name: string, f: ForecastOverRepeats | null, what: string) =>
    f ? `<tr><th>${name}</th><td>${f.n}</td><td>${over(cs, f.ece, (x) => num(x, 4))}</td><td>${over(cs, f.brier, (x) => num(x, 4))}</td><td>${over(cs, f.logLoss, (x) => num(x, 4))}</td><td>${what}</td></tr>`
      : `<tr><th>${name}</th><td colspan="5">none: interval answers carry no Venn–Abers beliefs</td></tr>`;
  return `<table class="wide" id="calibration-errors${o.suffix}"><tr><th></th><th>forecasts</th><th>ECE</th><th>Brier</th><th>log-loss</th><th>what is forecast</th></tr>
${row("raw probabilities", c.raw, "each (test item, option) pair: the model's normalised probability that the option is gold")}
${row("Venn–Abers beliefs", c.vennAbers, "the same pairs: the Venn–Abers belief p1 / (1 − p0 + p1)")}
${row("top-1 confidence", c.topLabel, `the model's most probable option (accuracy ${over(cs, c.topLabel.accuracy, pct)}, mean confidence ${over(cs, c.topLabel.confidence, pct)})`)}
</table>`;
}

function baselinesTable(cs: CellStatistics, o: TablesOptions): string {
  const one = cs.repeats === 1;
  const body = cs.baselines
    .map((b) => {
      const name = `${escapeHtml(b.name)}${!one && b.k ? ` (k = ${[...new Set(b.k)].join(", ")})` : ""}`;
      const spread = one ? range(b.ci!) : `${pct(b.coverage.min)}–${pct(b.coverage.max)}</td><td>${b.below}/${cs.repeats}`;
      return `<tr><td>${name}${b.guaranteed ? " <span class=ok>guaranteed</span>" : ""}</td><td>${over(cs, b.coverage, pct)}${b.below > 0 && !b.guaranteed ? " <span class=bad>below target</span>" : ""}</td><td>${spread}</td><td>${over(cs, b.averageSize, (x) => num(x, 3))}</td><td>${escapeHtml(b.rule)}</td></tr>`;
    })
    .join("");
  const heads = one ? "<th>coverage</th><th>95% interval</th>" : "<th>coverage (mean ± sd)</th><th>range over repeats</th><th>repeats below target (95% interval)</th>";
  return `<table class="wide" id="baselines${o.suffix}"><tr><th>sets</th>${heads}<th>mean ${o.sizeWord}</th><th>how they are made</th></tr>${body}</table>`;
}

/** 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 901st (it wrote "901-th"). */
export function ordinal(k: number): string {
  const tens = k % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : (["th", "st", "nd", "rd"][k % 10] ?? "th");
  return `${k}${suffix}`;
}

function thresholdTable(cs: CellStatistics, o: TablesOptions): string {
  const t = cs.threshold;
  const q = Number.isFinite(t.score.max) ? over(cs, t.score, (x) => num(x, 4)) : "+∞";
  const what = cs.repeats === 1
    ? `the ${ordinal(t.k)} smallest of ${t.n} ${escapeHtml(t.method)} calibration scores (k = ⌈(n+1)(1−α)⌉); ${escapeHtml(t.rule)}`
    : `over ${cs.repeats} repeats, each the ${ordinal(t.k)} smallest of its ${t.n} ${escapeHtml(t.method)} calibration scores (k = ⌈(n+1)(1−α)⌉); range ${num(t.score.min, 4)}–${num(t.score.max, 4)}`;
  return `<table id="threshold${o.suffix}">
<tr><th>calibrated threshold q̂</th><td><b>${q}</b>: ${what}</td></tr>
<tr><th>empty / singleton / full</th><td>${over(cs, cs.rates.empty, pct)} / ${over(cs, cs.rates.singleton, pct)} / ${over(cs, cs.rates.full, pct)} of ${cs.rates.n} test answers</td></tr>
<tr><th>size-stratified coverage</th><td>${over(cs, cs.sizeStratifiedCoverage, pct)}: the lowest coverage over ${o.sizeWord}s held by at least 10 test items</td></tr>
<tr><th>coverage bands</th><td>central ${pct(cs.bandLevel)} range of the beta-binomial law of split-conformal coverage; other intervals are Clopper–Pearson 95%</td></tr>
</table>`;
}

function warningsList(cs: CellStatistics, o: TablesOptions): string {
  if (cs.warnings.length === 0) return `<p id="warnings${o.suffix}" class=ok>No warning.</p>`;
  const item = (w: CellStatistics["warnings"][number]) => `${escapeHtml(w.text)}${cs.repeats > 1 ? ` <small>(${w.repeats} of ${cs.repeats} repeats)</small>` : ""}`;
  return `<ul id="warnings${o.suffix}">${cs.warnings.map((w) => `<li class=bad>${item(w)}</li>`).join("")}</ul>`;
}

/** The section's tables under headings of level `h` (2 in a run's report, 4 inside a suite cell). */
export function statisticsTables(cs: CellStatistics, o: TablesOptions, h = 2): string {
  const sub = h + 1;
  const sizeHead = o.sizeWord === "set size" ? "set size" : "interval width";
  return `<h${h}>Warnings</h${h}>
${warningsList(cs, o)}
<h${h}>Threshold and answers</h${h}>
${thresholdTable(cs, o)}
<h${h}>Conditional coverage</h${h}>
<h${sub}>By true class</h${sub}>
${strataTable(cs, "coverage-by-class", "class", cs.coverageByClass, o)}
<h${sub}>By ${sizeHead}</h${sub}>
${strataTable(cs, "coverage-by-size", o.sizeWord, cs.coverageBySize, o)}
<h${sub}>By group</h${sub}>
${strataTable(cs, "coverage-by-group", "group", cs.coverageByGroup, o)}
${cs.coverageByOptionCount.length > 1 ? `<h${sub}>By option count</h${sub}>
${strataTable(cs, "coverage-by-option-count", "options", cs.coverageByOptionCount, o)}
` : ""}<h${h}>Calibration of the probabilities</h${h}>
${calibrationTable(cs, o)}
<p>ECE over 10 equal-width bins; Brier score and log-loss (nats, forecasts clipped to [1e-15, 1 − 1e-15]) per forecast. Lower is better for all three.</p>
<h${h}>Conformal ${o.answers} beside naive ones, at α = ${cs.alpha}</h${h}>
${baselinesTable(cs, o)}
`;
}

export function statisticsSection(s: RunSummary): string {
  if (!s.statistics) return "";
  const interval = s.queryType === "interval";
  return statisticsTables(overRepeats([s.statistics]), { suffix: "", sizeWord: interval ? "width (levels)" : "set size", answers: interval ? "intervals" : "sets" });
}
