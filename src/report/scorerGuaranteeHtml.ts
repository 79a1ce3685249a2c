// A scorer's guarantee over repeats as table cells: the realized value (mean ± sd, range) against each repeat's
// band, how many repeats fell inside, the abstention rate and ECE before and after Venn–Abers. Shared by a free-form
// run's report (one row per scorer) and a suite's (one row per model × task × scorer × α).
import { escapeHtml } from "./escape.js";
import type { ScorerGuarantee } from "./querySummary.js";

const num = (x: number, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : "—");
const spread = (x: { mean: number; sd: number }, d = 3) => `${num(x.mean, d)} ± ${num(x.sd, d)}`;

export const GUARANTEE_HEADERS = ["realized value (mean ± sd, range)", "band per repeat (widest)", "repeats inside", "abstention rate", "ECE before Venn–Abers", "ECE after"];

/** The cells of GUARANTEE_HEADERS for one guarantee; each carries data-field so a reader (or a test) can find it. */
export function guaranteeCells(g: ScorerGuarantee | undefined): string {
  if (!g) return `<td colspan=${GUARANTEE_HEADERS.length}>—</td>`;
  const low = Math.min(...g.bands.map((b) => b[0]));
  const high = Math.max(...g.bands.map((b) => b[1]));
  const all = g.inBand === g.repeats;
  return `<td data-field="value">${spread(g.value)} <small>(${num(g.value.min)}–${num(g.value.max)})</small></td>` +
    `<td data-field="band">${num(low)}–${num(high)}</td>` +
    `<td data-field="in-band" class=${all ? "ok" : "bad"}>${g.inBand}/${g.repeats}</td>` +
    `<td data-field="abstention">${g.abstention ? spread(g.abstention) : "— <small>(beliefs always answer)</small>"}</td>` +
    `<td data-field="ece-before">${spread(g.eceBefore, 4)}</td><td data-field="ece-after">${spread(g.eceAfter, 4)}</td>`;
}

/** What the guarantee columns mean, once above the table. */
export function guaranteeNote(g: ScorerGuarantee): string {
  return `<p>Each scorer's confidence calibrated as a <b>${escapeHtml(g.queryType)}</b> on the local conformal engine over ${g.repeats} independent
seeded splits of the same graded answers (${g.calibration} calibrate, ${g.test} test): ${escapeHtml(g.guarantee)}. Realized value: ${escapeHtml(g.quantity)};
band: ${escapeHtml(g.bandNote)}.${g.queryType === "gate" ? " Abstention rate: the share of test answers not approved (escalated, or the gate abstaining when no threshold meets the target)." : ""}</p>`;
}
