// Per-option Venn–Abers for set answers (`venn_abers (per option)`): one-vs-rest, option j calibrated on
// (p_ij, 1{label_i = j}) over all examples (Vovk & Petej 2014 applied per class).

import { drain } from "../numeric/drain.js";
import { invalid, assertKind } from "../errors.js";
import { checkLabel, rowView, type ProbabilityRows } from "../rows/probabilityRows.js";
import { fitVennAbersSteps } from "./vennAbersFit.js";
import { beliefsInto, predictBelief, type BeliefPrediction, type CalibratedBelief } from "./vennAbers.js";

export interface CalibratedOptionBeliefs {
  readonly kind: "option-beliefs";
  /** Options per row; 0 when calibrated over rows of any width (one fit shared by every option). */
  readonly width: number;
  readonly perOption: readonly CalibratedBelief[];
}

/** Rows checked between two yields of the stepwise calibration. */
const ROWS_PER_STEP = 16_384;

/** Needs equal row lengths (option j means the same option in every example). */
export function calibrateOptionBeliefs(examples: { probabilities: ProbabilityRows; labels: ArrayLike<number> }): CalibratedOptionBeliefs {
  return drain(calibrateOptionBeliefsSteps(examples));
}

/** calibrateOptionBeliefs in steps (yielding inside each option's fit, see fitVennAbersSteps). Same result. */
export function* calibrateOptionBeliefsSteps(examples: { probabilities: ProbabilityRows; labels: ArrayLike<number> }): Generator<void, CalibratedOptionBeliefs> {
  const view = rowView(examples.probabilities);
  const n = view.count;
  if (examples.labels.length !== n) throw invalid(`labels has ${examples.labels.length} entries for ${n} rows`, "labels");
  const K = n ? view.width(0) : 0;
  const perOption: CalibratedBelief[] = [];
  const s = new Float64Array(n);
  const y = new Uint8Array(n);
  // The loops are plain functions: a generator's own loops run interpreted until it is called again.
  for (let from = 0; from < n; from += ROWS_PER_STEP) {
    checkRows(view, examples.labels, K, from, Math.min(n, from + ROWS_PER_STEP));
    if (from + ROWS_PER_STEP < n) yield;
  }
  for (let j = 0; j < K; j++) {
    oneVsRest(view, examples.labels, j, s, y);
    yield;
    perOption.push(yield* fitVennAbersSteps(s, y));
  }
  return Object.freeze({ kind: "option-beliefs" as const, width: K, perOption });
}

function checkRows(view: ReturnType<typeof rowView>, labels: ArrayLike<number>, K: number, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    if (view.width(i) !== K) throw invalid(`row ${i} has ${view.width(i)} options, row 0 has ${K}`, `probabilities[${i}]`);
    checkLabel(labels[i]!, K, `labels[${i}]`);
  }
}

/** Option j's scores and whether it is each row's label. */
function oneVsRest(view: ReturnType<typeof rowView>, labels: ArrayLike<number>, j: number, s: Float64Array, y: Uint8Array): void {
  for (let i = 0; i < s.length; i++) {
    s[i] = view.data(i)[view.offset(i) + j]!;
    y[i] = labels[i] === j ? 1 : 0;
  }
}

/** [p0, p1] (and merged probability) per option, in input order. */
export function predictOptionBeliefs(cal: CalibratedOptionBeliefs, probabilities: ArrayLike<number>): BeliefPrediction[] {
  assertKind(cal, "option-beliefs", "predictOptionBeliefs");
  if (cal.width === 0) return Array.from(probabilities, (p) => predictBelief(cal.perOption[0]!, p));
  if (probabilities.length !== cal.width) throw invalid(`expected ${cal.width} probabilities, got ${probabilities.length}`, "probabilities");
  return cal.perOption.map((c, j) => predictBelief(c, probabilities[j]!));
}

/** [p0, p1] per row and option of a row-major N × K batch, as two N × K arrays. */
export function predictOptionBeliefsBatch(cal: CalibratedOptionBeliefs, batch: { probabilities: Float64Array; width: number }): { p0: Float64Array; p1: Float64Array } {
  assertKind(cal, "option-beliefs", "predictOptionBeliefsBatch");
  const { probabilities: d, width: K } = batch;
  if (cal.width !== 0 && K !== cal.width) throw invalid(`expected ${cal.width} probabilities per row, got width ${K}`, "width");
  if (d.length % K !== 0) throw invalid(`probabilities has ${d.length} entries, not a multiple of width ${K}`, "probabilities");
  const m = d.length / K;
  const p0 = new Float64Array(d.length);
  const p1 = new Float64Array(d.length);
  for (let j = 0; j < K; j++) beliefsInto(cal.perOption[cal.width === 0 ? 0 : j]!, d, j, K, m, p0, p1, undefined, j, K);
  return { p0, p1 };
}
