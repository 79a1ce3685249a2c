// A BenchSummary with free-form rows for report tests: two synthetic models whose answers are right with a
// probability that rises with a latent confidence (one model's scores follow it closely, the other's loosely),
// six scorers with lm-polygraph's long names, through the suite's own row computation (generationCells.ts).
import { mulberry32 } from "../../src/conformal/index.js";
import type { BenchSummary } from "../../src/report/index.js";
import { generationRows } from "../../src/run/bench/generationCells.js";
import type { GenerationEvidence } from "../../src/run/bench/generationLanes.js";
import type { Suite } from "../../src/run/bench/suite.js";
import { scorerByName } from "../../src/uncertainty/index.js";

const SCORERS = ["MaximumSequenceProbability", "MeanTokenEntropy", "MonteCarloNormalizedSequenceEntropy", "LexicalSimilarity_rougeL", "EigValLaplacian_NLI_score_entail", "NumSemSets"];
const MODELS = ["/models/stories260K.gguf", "/models/tiny-gpt2"];

export function sampleGenerationBench(): BenchSummary {
  const suite = { seed: 1, repeats: 5, calibrationFraction: 0.5, alphas: [0.2, 0.3] } as Suite;
  const task = { task: { name: "story-answers", generation: { queryType: "gate", options: { task: "generic" }, scorers: SCORERS } } } as unknown as GenerationEvidence["task"];
  const generation = MODELS.flatMap((model, k) => {
    const rng = mulberry32(7 + k);
    const items = Array.from({ length: 80 }, () => {
      const latent = rng();
      const correct = rng() < latent;
      // Uncertainties (higher = less sure), each scorer a noisier view of the latent confidence.
      const scores = Object.fromEntries(SCORERS.map((s, j) => [s, -(latent + (0.2 + 0.15 * j + 0.4 * k) * (rng() - 0.5))]));
      return { scores, correct };
    });
    const cell = { model, task, items, grader: "generic: f1>=0.5", scorers: SCORERS.map((s) => scorerByName(s)!), skipped: [] } as unknown as GenerationEvidence;
    return generationRows(suite, cell);
  });
  return {
    calibkit: "0.1.0", createdAt: "2026-11-27T00:00:00.000Z", suite: "/examples/bench-generation.yaml", seed: 1, repeats: 5, models: MODELS,
    tasks: [{ name: "story-answers", dataset: "/fixtures/story-answers.jsonl", items: 80 }], methods: [], alphas: suite.alphas, cache: null,
    evidence: MODELS.map((model) => ({ model, task: "story-answers", items: 80, hits: 0, computed: 80, modelCalls: 160, seconds: 20, itemsPerSecond: 4, tokensPerSecond: null, accessLevel: "L3" })),
    rows: [], scorers: SCORERS, generation, skippedScorers: [], failures: [], totalSeconds: 42,
  };
}
