// Semantic classes by bidirectional entailment (Kuhn et al. 2023, Semantic Uncertainty, arXiv:2302.09664), in
// lm-polygraph's order (stat_calculators/semantic_classes.py): each sample joins the first class whose first
// member it is equivalent to, else opens a new class. One judge call per (sample, class representative), so at
// most K × classes calls, never K².
import type { SemanticClasses, SquareMatrix } from "./statistics.js";

/** Is sample `candidate` equivalent to the class representative `representative` (both directions entail)? */
export type EquivalenceJudge = (representative: number, candidate: number) => boolean;

/** Partitions samples 0..k−1 into classes, asking `equivalent` only about class representatives. */
export function semanticClasses(k: number, equivalent: EquivalenceJudge): SemanticClasses {
  const sampleToClass: number[] = [];
  const classToSample: number[][] = [];
  for (let i = 0; i < k; i++) {
    let found = -1;
    for (let c = 0; c < classToSample.length && found < 0; c++) {
      if (equivalent(classToSample[c]![0]!, i)) found = c;
    }
    if (found < 0) {
      found = classToSample.length;
      classToSample.push([]);
    }
    classToSample[found]!.push(i);
    sampleToClass.push(found);
  }
  return { sample_to_class: sampleToClass, class_to_sample: classToSample };
}

/**
 * lm-polygraph's test of entailment from the NLI probabilities: the model's arg-max label is ENTAILMENT. With the
 * three labels of an MNLI model (contradiction 0, neutral 1, entailment 2; torch's argmax keeps the first of a
 * tie), that is p_e > p_c and p_e > 1 − p_e − p_c.
 */
export function isEntailment(entail: number, contra: number): boolean {
  return entail > contra && entail > 1 - entail - contra;
}

/** The judge lm-polygraph uses: forward (representative ⇒ candidate) and then backward entailment. */
export function entailmentJudge(entail: SquareMatrix, contra: SquareMatrix): EquivalenceJudge {
  const entails = (i: number, j: number) => isEntailment(entail[i]![j]!, contra[i]![j]!);
  return (r, i) => entails(r, i) && entails(i, r);
}
