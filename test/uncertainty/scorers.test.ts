// Every scorer against lm-polygraph's own estimator on the same statistics (the inputs and the numbers are in
// reference/values.ts, written by `python3 test/uncertainty/reference/lm_polygraph_reference.py
// /work/.mirror/IINemo+lm-polygraph/repo /work/.mirror/nltk+nltk/repo`), to 1e-9 relative, plus the same scorers
// by hand from their papers' formulas.
import { describe, expect, it } from "vitest";
import {
  SCORERS, scoreItem, scorerByName, semanticEntropyScorer, tokenEntropies, withDerived,
  type ItemStatistics, type Scorer,
} from "../../src/uncertainty/index.js";
import { REFERENCE as R } from "./reference/values.js";
import { expectClose, num, nums } from "./reference/numbers.js";

const I = R.inputs;
const stats: ItemStatistics = {
  greedy_texts: I.greedy_texts,
  greedy_log_likelihoods: nums(I.greedy_log_likelihoods),
  greedy_log_probs: I.greedy_log_probs.map(nums),
  sample_texts: I.sample_texts,
  sample_log_probs: nums(I.sample_log_probs),
  sample_log_likelihoods: I.sample_log_likelihoods.map(nums),
  semantic_matrix_entail: I.semantic_matrix_entail.map(nums),
  semantic_matrix_contra: I.semantic_matrix_contra.map(nums),
  sample_embeddings: I.sample_embeddings.map(nums),
  greedy_sentence_similarity: I.greedy_sentence_similarity,
  p_true: I.p_true,
};

const extra: Record<string, Scorer> = {
  "SemanticEntropy (Direct)": semanticEntropyScorer({ entropy_estimation: "direct" }),
  SemanticEntropyUnique: semanticEntropyScorer({ use_unique_responses: true }),
};
const byName = (name: string): Scorer => scorerByName(name) ?? extra[name] ?? expect.fail(`no scorer ${name}`);

describe("scorers equal lm-polygraph's estimators on the same statistics", () => {
  const { scores, missing } = scoreItem(stats, [...SCORERS, ...Object.values(extra)]);

  it("scores every registered scorer from these statistics", () => {
    expect(missing).toEqual({});
    expect(Object.keys(R.scores).sort()).toEqual(Object.keys(scores).sort());
  });

  for (const [name, expected] of Object.entries(R.scores)) {
    it(name, () => expectClose(scores[name]!, expected, name));
  }

  it("derives entropy from greedy_log_probs as lm-polygraph's EntropyCalculator (−∞ entries skipped)", () => {
    const h = tokenEntropies(stats.greedy_log_probs!);
    R.entropy.forEach((e, t) => expectClose(h[t]!, e, `token ${t}`));
  });

  it("derives sample_tokens and sample_log_probs from sample_log_likelihoods when they are absent", () => {
    const d = withDerived({ sample_log_likelihoods: [[-1, -2], [-0.5]] }, ["sample_log_probs", "sample_tokens"]);
    expect(Array.from(d.sample_log_probs!)).toEqual([-3, -0.5]);
    expect(d.sample_tokens!.map((t) => t.length)).toEqual([2, 1]);
  });
});

describe("edge cases, against lm-polygraph on the same input", () => {
  const E = R.edge;
  const run = (s: ItemStatistics, expected: Record<string, string>) => {
    for (const [name, value] of Object.entries(expected)) expectClose(byName(name).score(withDerived(s, byName(name).statistics)), value, name);
  };
  const k = I.sample_texts.length;
  const e = stats.semantic_matrix_entail!, c = stats.semantic_matrix_contra!;

  it("K = 1 sample (LexicalSimilarity has no pair: NaN, a mean of nothing as in numpy)", () => {
    run({
      sample_texts: I.sample_texts.slice(0, 1), sample_log_probs: nums(I.sample_log_probs).slice(0, 1),
      sample_tokens: stats.sample_log_likelihoods!.slice(0, 1), semantic_matrix_entail: [[e[0]![0]!]],
      semantic_matrix_contra: [[c[0]![0]!]], sample_embeddings: stats.sample_embeddings!.slice(0, 1),
    }, E.k1);
    expect(k).toBeGreaterThan(1);
  });

  it("all samples identical", () => {
    run({
      sample_texts: ["Paris", "Paris", "Paris", "Paris"], sample_log_probs: [-0.2, -0.2, -0.2, -0.2], sample_tokens: [[1], [1], [1], [1]],
      semantic_matrix_entail: Array.from({ length: 4 }, () => [0.97, 0.97, 0.97, 0.97]),
      semantic_matrix_contra: Array.from({ length: 4 }, () => [0.01, 0.01, 0.01, 0.01]),
    }, E.identical);
  });

  it("empty greedy text (no tokens): NaN where lm-polygraph's mean is of nothing or where it raises", () => {
    run({ greedy_log_likelihoods: [], entropy: [], greedy_log_probs: [], greedy_sentence_similarity: I.greedy_sentence_similarity }, E.empty_greedy);
  });

  it("empty sampled texts", () => {
    run({ sample_texts: ["", "Paris", ""], sample_log_probs: [-0.1, -0.7, -0.1], sample_tokens: [[], [5], []] }, E.empty_samples);
  });

  it("a token log-probability of −∞", () => {
    const lp = [[0, 1, 2], [-Infinity, 0, -Infinity], [1, 1, 0]].map((row, t) => {
      if (t === 1) return row;
      const m = Math.max(...row), z = Math.log(row.reduce((a, x) => a + Math.exp(x - m), 0)) + m;
      return row.map((x) => x - z);
    });
    run({ greedy_log_likelihoods: [-0.2, -Infinity, -0.3], greedy_log_probs: lp, greedy_sentence_similarity: [0.5, 0.2] }, E.neg_inf);
    const h = tokenEntropies(lp);
    E.neg_inf_entropy.forEach((x, t) => expectClose(h[t]!, x, `entropy ${t}`));
    run({ sample_texts: ["a", "b", "a"], sample_log_probs: [-Infinity, -0.5, -1], sample_tokens: [[1], [2], [1]],
      semantic_classes_entail: { sample_to_class: [0, 1, 0], class_to_sample: [[0, 2], [1]] } }, E.neg_inf_samples);
  });
});

describe("hand-worked cases from the papers' formulas", () => {
  it("MSP and perplexity of a two-token answer with p = 0.5 and 0.25", () => {
    const s = { greedy_log_likelihoods: [Math.log(0.5), Math.log(0.25)] };
    expect(byName("MaximumSequenceProbability").score(s)).toBeCloseTo(Math.log(8), 14);
    expect(byName("Perplexity").score(s)).toBeCloseTo(Math.log(8) / 2, 14);
    expect(byName("MaximumSequenceProbability").confidence(Math.log(8))).toBeCloseTo(1 / 8, 14);
  });

  it("semantic entropy of two equally likely classes is log 2 (Kuhn et al.: a uniform over meanings)", () => {
    const s: ItemStatistics = {
      sample_texts: ["a", "a'", "b", "b'"], sample_log_probs: Array(4).fill(Math.log(0.25)),
      semantic_classes_entail: { sample_to_class: [0, 0, 1, 1], class_to_sample: [[0, 1], [2, 3]] },
    };
    expect(byName("SemanticEntropy").score(s)).toBeCloseTo(Math.log(2), 14);
    expect(byName("SemanticEntropyEmpirical").score(s)).toBeCloseTo(Math.log(2), 14);
  });

  it("mean token entropy of uniform distributions over V tokens is log V; self-certainty is then 0", () => {
    const row = Array(8).fill(-Math.log(8));
    const s = withDerived({ greedy_log_probs: [row, row] }, ["entropy"]);
    expect(byName("MeanTokenEntropy").score(s)).toBeCloseTo(Math.log(8), 14);
    expect(byName("SelfCertainty").score(s)).toBeCloseTo(0, 14);
    // V = 4 keeps Σ√p·√(1/V) exactly 1 (with V = 8 it rounds above 1 and arccos is NaN, in numpy too).
    const quarter = Array(4).fill(-Math.log(4));
    expect(byName("FisherRao").score({ greedy_log_probs: [quarter] })).toBe(0);
  });

  it("NumSemSets and EigValLaplacian count two disjoint blocks of agreeing samples as 2", () => {
    const block = (i: number, j: number) => (i < 2) === (j < 2);
    const e = Array.from({ length: 4 }, (_, i) => Array.from({ length: 4 }, (_, j) => (block(i, j) ? 0.9 : 0)));
    const c = Array.from({ length: 4 }, (_, i) => Array.from({ length: 4 }, (_, j) => (block(i, j) ? 0.05 : 0.9)));
    const s = { sample_texts: ["a", "a", "b", "b"], semantic_matrix_entail: e, semantic_matrix_contra: c };
    expect(byName("NumSemSets").score(s)).toBe(2);
    expect(byName("EigValLaplacian_NLI_score_entail").score(s)).toBeCloseTo(2, 12);
    expect(byName("DegMat_NLI_score_entail").score(s)).toBeCloseTo(1 - (8 * 0.9) / 16, 14);
  });

  it("Verbalized1S reads the stated probability; no statement is NaN", () => {
    expect(byName("Verbalized1S").score({ greedy_texts: "Rome. Probability: 0.70" })).toBeCloseTo(0.3, 14);
    expect(byName("Verbalized1S").score({ greedy_texts: "Rome." })).toBeNaN();
  });

  it("PTrue is −log p(True); CoCoA scales MSP by the mean dissimilarity", () => {
    expect(byName("PTrue").score({ p_true: Math.log(0.8) })).toBeCloseTo(-Math.log(0.8), 14);
    expect(byName("CocoaMSP").score({ greedy_log_likelihoods: [Math.log(0.5)], greedy_sentence_similarity: [1, 0.5] })).toBeCloseTo(Math.log(2) * 0.25, 14);
  });

  it("EigenScore of K identical embeddings is (log(K·0 + α)·(K−1) + log α)/K = log α", () => {
    const s = { sample_embeddings: [[1, 2, 3], [1, 2, 3], [1, 2, 3]] };
    // Rows equal after centring: one eigenvalue K·‖e − ē‖² + α, the others α.
    const v = 3 * ((1 - 2) ** 2 + 0 + (3 - 2) ** 2);
    expect(byName("EigenScore").score(s)).toBeCloseTo((Math.log(v + 1e-3) + 2 * Math.log(1e-3)) / 3, 10);
  });

  it("reads a number, not a string, from the reference helper", () => expect(num("1e-3")).toBe(0.001));
});
