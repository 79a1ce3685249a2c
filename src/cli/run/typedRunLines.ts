// What `calibkit run` prints after a typed run (belief, gate, claim, judge, route): the measured guarantee,
// the rates and the cross-check. Exit 1 when any answer disagrees or is left unchecked.
import type { QueryRunSummary } from "../../report/index.js";
import type { ReportFiles } from "../../run/index.js";

const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(4) : "—");

export function typedRunLines(s: QueryRunSummary, files: ReportFiles): { lines: string[]; code: number } {
  const q = s.section;
  const c = s.crossCheck;
  const unchecked = Object.values(c.unchecked).reduce((a, b) => a + b, 0);
  const lines = [
    `${s.queryType}: ${q.guarantee}`,
    `${q.quantity}: ${fmt(q.value)} on ${q.n} test items (target ${fmt(q.target)}, band ${fmt(q.band[0])}–${fmt(q.band[1])}${q.inBand ? "" : ", OUTSIDE"})`,
    ...q.rates.map((r) => `${r.name}: ${fmt(r.value)}`),
    ...(q.batches ? [`realized FDR per batch of ${q.batches.size}: ${q.batches.fdr.map(fmt).join(", ")}`] : []),
    ...(q.calibrationErrors ? [`calibration error: ECE ${fmt(q.calibrationErrors.expected)}, MCE ${fmt(q.calibrationErrors.maximum)}`] : []),
    `cross-check: ${c.disagreements.length === 0 ? "0 disagreements" : `${c.disagreements.length} DISAGREEMENTS`}, ${unchecked} unchecked, over ${c.answers} answers, ${c.fields} fields`,
    ...c.disagreements.slice(0, 20).map((x) => `  ${x.query} ${x.field}: service ${JSON.stringify(x.service)} ≠ local ${JSON.stringify(x.local)}`),
    ...c.uncheckedReasons.slice(0, 5).map((u) => `  unchecked ${u.query}: ${u.reason}`),
    ...(s.evidenceCache ? [`evidence: ${s.evidenceCache.hits} row(s) from the cache${s.evidenceCache.dir === null ? " (--no-cache)" : ""}, ${s.evidenceCache.computed} computed, ${s.evidenceCache.modelCalls} model call(s)`] : []),
    `time: ${s.totalSeconds.toFixed(1)} s (${s.timings.map((t) => `${t.step} ${t.seconds.toFixed(1)} s`).join(", ")})`,
    `wrote ${files.summaryPath}`,
    `wrote ${files.reportPath}`,
  ];
  return { lines, code: c.disagreements.length === 0 && unchecked === 0 ? 0 : 1 };
}
