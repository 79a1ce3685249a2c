// The statistics of free-form answers (issue 27, point 5) on the real stories260K: what the generation carries,
// the entailment matrix with the model as its own judge (both directions, one batch), classes asked of class
// representatives only (at most K × classes pairs) agreeing with the classes of the full matrix, P(True) as the
// scored prompt, and which scorers each access level allows.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countingAdapter, createLlamaCppAdapter, defaultModelsDir, type LlamaCppModelAdapter } from "../../src/adapters/index.js";
import {
  entailmentText, generationStatistics, itemStatistics, judgedStatistics, neededStatistics, pTrueText, scorersAt, sequenceStatistics,
  storeGeneration, topKEntropy, type StoredGeneration,
} from "../../src/evidence/index.js";
import { entailmentJudge, scoreItem, SCORERS, semanticClasses, type StatisticName } from "../../src/uncertainty/index.js";

const MODEL = join(defaultModelsDir(), "stories260K.gguf");
const PROMPT = "Lily looked up. One day, a little bird was flying in the";
let adapter: LlamaCppModelAdapter;
let generation: StoredGeneration;

beforeAll(async () => {
  adapter = await createLlamaCppAdapter({ modelPath: MODEL, gpu: false });
  generation = storeGeneration(await adapter.generate(PROMPT, { samples: 6, seed: 2, maxTokens: 12, stop: [".", "\n"], fullDistribution: true, embedding: true, topLogprobs: 5 }));
});
afterAll(async () => {
  await adapter.dispose();
});

const names = (level: "L0" | "L1" | "L2" | "L3" | "L4") => scorersAt(level, SCORERS).map((s) => s.name);

describe("statistics from the generation", () => {
  it("carries the greedy and sampled texts, token log-likelihoods, exact entropies, the full distributions and embeddings", () => {
    const s = sequenceStatistics(generation);
    expect(s.greedy_texts).toBe(generation.greedy.text);
    expect(s.sample_texts).toEqual(generation.samples.map((x) => x.text));
    expect(Array.from(s.greedy_log_likelihoods!)).toEqual(generation.greedy.logProbs);
    expect(s.greedy_log_probs).toHaveLength(generation.greedy.tokens.length);
    // The stored float32 rows decode to distributions: they sum to 1 and hold the greedy token's log-probability.
    s.greedy_log_probs!.forEach((row, t) => {
      let mass = 0;
      const values = Array.from(row);
      for (const lp of values) mass += Math.exp(lp);
      expect(mass).toBeCloseTo(1, 4);
      expect(Math.max(...values)).toBeCloseTo(generation.greedy.logProbs![t]!, 4);
    });
    expect(s.sample_log_likelihoods).toHaveLength(6);
    expect(s.sample_embeddings![0]!.length).toBeGreaterThan(0);
    expect(Array.from(s.entropy!)).toEqual(generation.greedy.entropies);
  });

  it("below L3 the entropy is taken over the top-k alternatives", () => {
    expect(topKEntropy({ a: Math.log(0.5), b: Math.log(0.25) })).toBeCloseTo(0.5 * Math.log(2) + 0.25 * Math.log(4), 12);
    const { entropies: _e, ...greedy } = generation.greedy;
    const s = sequenceStatistics({ ...generation, greedy });
    expect(Array.from(s.entropy!)).toEqual(greedy.topLogProbs!.map(topKEntropy));
  });
});

describe("judged statistics (the model as its own judge)", () => {
  it("scores every ordered pair once in one batch; the classes by representatives equal the full matrix's classes", async () => {
    const counted = countingAdapter(adapter);
    const needed = new Set<StatisticName>(["semantic_matrix_entail", "semantic_matrix_contra", "greedy_sentence_similarity", "p_true"]);
    const j = await judgedStatistics(counted.adapter, PROMPT, generation, needed);
    expect(counted.calls()).toBe(1);
    const k = generation.samples.length;
    expect(j.judgeCalls).toBe(k * (k - 1) + 2 * k);
    const entail = j.semantic_matrix_entail!;
    for (let a = 0; a < k; a++) {
      expect(entail[a]![a]).toBe(1);
      for (let b = 0; b < k; b++) {
        expect(entail[a]![b]).toBeGreaterThanOrEqual(0);
        expect(entail[a]![b]).toBeLessThanOrEqual(1);
        if (a !== b) expect(j.semantic_matrix_contra![a]![b]).toBeCloseTo(1 - entail[a]![b]!, 12);
      }
    }
    // One (i, j) entry is p(yes) over {yes, no} after the judge prompt, as the adapter scores it alone (llama.cpp's
    // batched and single evaluations differ in the fourth decimal).
    const texts = generation.samples.map((s) => s.text);
    const [[yes, no]] = (await adapter.scoreContinuations([{ prefix: entailmentText(PROMPT, texts[0]!, texts[1]!), continuations: [" yes", " no"] }])) as [number[]];
    expect(entail[0]![1]).toBeCloseTo(1 / (1 + Math.exp(no! - yes!)), 2);
    // p_true is log p("True") after lm-polygraph's prompt.
    const [[pTrue]] = (await adapter.scoreContinuations([{ prefix: pTrueText(PROMPT, generation.greedy.text), continuations: ["True"] }])) as [number[]];
    expect(j.p_true).toBeCloseTo(pTrue!, 2);

    const byRep = countingAdapter(adapter);
    const c = await judgedStatistics(byRep.adapter, PROMPT, generation, new Set<StatisticName>(["semantic_classes_entail"]));
    const fromMatrix = semanticClasses(k, entailmentJudge(entail, j.semantic_matrix_contra!));
    expect(c.semantic_classes_entail).toEqual(fromMatrix);
    // Each judged pair is asked both ways; replays ask about representatives only: at most K × classes pairs.
    expect(c.judgeCalls).toBeLessThanOrEqual(2 * k * fromMatrix.class_to_sample.length);
    expect(byRep.calls()).toBeLessThanOrEqual(fromMatrix.class_to_sample.length + 1);
  });

  it("generationStatistics gives every scorer the level allows a value, from one generate call and one judge batch", async () => {
    const counted = countingAdapter(adapter);
    const allowed = scorersAt(adapter.accessLevel, SCORERS);
    const row = await generationStatistics(counted.adapter, { prompt: PROMPT, rendered: false, question: PROMPT, until: [".", "\n"] }, allowed, { samples: 5, seed: 1, maxTokens: 12 });
    expect(counted.calls()).toBe(2);
    // The row is plain JSON: what the evidence cache stores reads back to the same statistics.
    const again = itemStatistics(JSON.parse(JSON.stringify(row)));
    const { scores, missing } = scoreItem(again, allowed);
    expect(missing).toEqual({});
    expect(Object.keys(scores).sort()).toEqual(allowed.map((s) => s.name).sort());
    expect(scoreItem(itemStatistics(row), allowed).scores).toEqual(scores);
  });
});

describe("the scorers each level allows", () => {
  it("L0 keeps the text-only ones, L1 adds likelihoods and the model's own judgements, L3 the distribution, L4 embeddings", () => {
    expect(names("L0")).toContain("LexicalSimilarity_rougeL");
    expect(names("L0")).toContain("EigValLaplacian_Jaccard_score");
    // Judged statistics need the model's scores (L1+), though an NLI model would give them from text.
    expect(names("L0")).not.toContain("SemanticEntropyEmpirical");
    expect(names("L0")).not.toContain("MaximumSequenceProbability");
    expect(names("L1")).toEqual(expect.arrayContaining(["MaximumSequenceProbability", "SemanticEntropy", "PTrue", "NumSemSets"]));
    expect(names("L1")).not.toContain("SelfCertainty");
    expect(names("L3")).toContain("SelfCertainty");
    expect(names("L3")).not.toContain("EigenScore");
    expect(names("L4")).toHaveLength(SCORERS.length);
    expect([...neededStatistics(scorersAt("L1", SCORERS))]).not.toContain("greedy_log_probs");
    // Semantic entropy alone needs classes, not the whole matrix: only representatives are judged.
    expect([...neededStatistics(SCORERS.filter((s) => s.name === "SemanticEntropy"))]).not.toContain("semantic_matrix_entail");
  });
});
