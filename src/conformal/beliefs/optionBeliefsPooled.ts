// Venn–Abers beliefs for set answers over rows of any number of options (Vovk & Petej 2014): option j of
// row i is the pair (p_ij, 1{label_i = j}); one isotonic fit over every pair of every row, shared by all
// options, since "option j" names no fixed option when rows differ in length (mixed option counts).

import { drain } from "../numeric/drain.js";
import { invalid } from "../errors.js";
import { checkLabel, rowView, type ProbabilityRows } from "../rows/probabilityRows.js";
import { fitVennAbersSteps } from "./vennAbersFit.js";
import type { CalibratedOptionBeliefs } from "./optionBeliefs.js";

/** One fit over all (row, option) pairs; the result has width 0 and answers rows of any width. */
export function calibrateOptionBeliefsPooled(examples: { probabilities: ProbabilityRows; labels: ArrayLike<number> }): CalibratedOptionBeliefs {
  return drain(calibrateOptionBeliefsPooledSteps(examples));
}

/** calibrateOptionBeliefsPooled in steps (yielding inside the fit). Same result. */
export function* calibrateOptionBeliefsPooledSteps(examples: { probabilities: ProbabilityRows; labels: ArrayLike<number> }): Generator<void, CalibratedOptionBeliefs> {
  const view = rowView(examples.probabilities);
  const n = view.count;
  if (examples.labels.length !== n) throw invalid(`labels has ${examples.labels.length} entries for ${n} rows`, "labels");
  let total = 0;
  for (let i = 0; i < n; i++) {
    checkLabel(examples.labels[i]!, view.width(i), `labels[${i}]`);
    total += view.width(i);
  }
  const s = new Float64Array(total);
  const y = new Uint8Array(total);
  let o = 0;
  for (let i = 0; i < n; i++) {
    const d = view.data(i);
    const at = view.offset(i);
    const w = view.width(i);
    for (let j = 0; j < w; j++, o++) {
      s[o] = d[at + j]!;
      y[o] = examples.labels[i] === j ? 1 : 0;
    }
  }
  yield;
  const fit = yield* fitVennAbersSteps(s, y);
  return Object.freeze({ kind: "option-beliefs" as const, width: 0, perOption: [fit] });
}
