// Semantic classes: the same partition as lm-polygraph's SemanticClassesCalculator on the same NLI matrices (values
// from `python3 test/uncertainty/reference/lm_polygraph_reference.py /work/.mirror/IINemo+lm-polygraph/repo
// /work/.mirror/nltk+nltk/repo`), and a judge asked only about class representatives: at most K × classes calls.
import { describe, expect, it } from "vitest";
import { entailmentJudge, semanticClasses, withDerived } from "../../src/uncertainty/index.js";
import { REFERENCE as R } from "./reference/values.js";
import { nums } from "./reference/numbers.js";

const entail = R.inputs.semantic_matrix_entail.map(nums);
const contra = R.inputs.semantic_matrix_contra.map(nums);

describe("semantic classes", () => {
  it("equal lm-polygraph's clustering on the same matrices (a neutral pair inside a class: the representative decides)", () => {
    const classes = semanticClasses(entail.length, entailmentJudge(entail, contra));
    expect(classes.sample_to_class).toEqual(R.classes.sample_to_class);
    expect(classes.class_to_sample).toEqual(R.classes.class_to_sample);
    const derived = withDerived({ semantic_matrix_entail: entail, semantic_matrix_contra: contra }, ["semantic_classes_entail"]);
    expect(derived.semantic_classes_entail).toEqual(classes);
  });

  it("ask the equivalence judge at most K × classes times, over many random partitions", () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 200; round++) {
      const k = 1 + Math.floor(rand() * 30);
      const truth = Array.from({ length: k }, () => Math.floor(rand() * (1 + rand() * 8)));
      let calls = 0;
      const classes = semanticClasses(k, (a, b) => { calls++; return truth[a] === truth[b]; });
      const n = classes.class_to_sample.length;
      expect(n).toBe(new Set(truth).size);
      expect(calls).toBeLessThanOrEqual(k * n);
      for (const members of classes.class_to_sample) expect(new Set(members.map((i) => truth[i])).size).toBe(1);
    }
  });

  it("K = 1 is one class and asks nothing; identical samples are one class after K − 1 calls", () => {
    let calls = 0;
    expect(semanticClasses(1, () => { calls++; return true; }).class_to_sample).toEqual([[0]]);
    expect(calls).toBe(0);
    expect(semanticClasses(5, () => { calls++; return true; }).class_to_sample).toEqual([[0, 1, 2, 3, 4]]);
    expect(calls).toBe(4);
  });
});
