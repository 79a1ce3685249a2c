// The statistics the local model judges about its own samples (issue 27, point 5): lm-polygraph's
// semantic_matrix_entail / _contra with the model itself as the NLI judge (ENTAILMENT_PROMPT, both directions),
// semantic classes asking only about class representatives (Kuhn et al. 2023, via uncertainty's class builder),
// the greedy answer's similarity to each sample (CoCoA), and p_true (Kadavath et al. 2022). Every prompt of one
// round goes to the adapter in one scoreContinuations call (L2+), or one first-token call each at L1.
import type { ModelAdapter } from "../../adapters/index.js";
import { levelRank } from "../../api/index.js";
import {
  semanticClasses, type SemanticClasses, type StatisticName,
} from "../../uncertainty/index.js";
import { ENTAILMENT_PROMPT, entailmentText, P_TRUE_PROMPT, pTrueText } from "./judgePrompts.js";
import { scoreAsks as score, yesShare, type Ask, type JudgeOptions } from "./scoredPrompts.js";
import type { StoredGeneration } from "./storedGeneration.js";

export type { JudgeOptions } from "./scoredPrompts.js";

export interface JudgedStatistics {
  semantic_matrix_entail?: number[][];
  semantic_matrix_contra?: number[][];
  semantic_classes_entail?: SemanticClasses;
  greedy_sentence_similarity?: number[];
  p_true?: number;
  /** Entailment prompts scored (each one direction of one pair). */
  judgeCalls: number;
}

/** The judged statistics, all needing a model at L1 or above. */
export const JUDGED_STATISTICS: readonly StatisticName[] = [
  "semantic_matrix_entail", "semantic_matrix_contra", "semantic_classes_entail", "greedy_sentence_similarity", "p_true",
];

export async function judgedStatistics(
  adapter: ModelAdapter, question: string, g: StoredGeneration, needed: ReadonlySet<StatisticName>, o: JudgeOptions = {},
): Promise<JudgedStatistics> {
  if (levelRank(adapter.accessLevel) < 1) return { judgeCalls: 0 };
  const texts = g.samples.map((s) => s.text);
  const k = texts.length;
  const entailAsk = (a: string, b: string): Ask => ({ text: entailmentText(question, a, b), continuations: ENTAILMENT_PROMPT.continuations });
  const wantMatrix = needed.has("semantic_matrix_entail") || needed.has("semantic_matrix_contra");
  const wantSimilarity = needed.has("greedy_sentence_similarity") && k > 0;
  const wantPTrue = needed.has("p_true");
  const pairs: [number, number][] = [];
  if (wantMatrix) for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) if (i !== j) pairs.push([i, j]);
  const asks: Ask[] = pairs.map(([i, j]) => entailAsk(texts[i]!, texts[j]!));
  if (wantSimilarity) for (const t of texts) asks.push(entailAsk(g.greedy.text, t), entailAsk(t, g.greedy.text));
  if (wantPTrue) asks.push({ text: pTrueText(question, g.greedy.text), continuations: P_TRUE_PROMPT.continuations });
  const scored = await score(adapter, asks, o);
  const out: JudgedStatistics = { judgeCalls: asks.length - (wantPTrue ? 1 : 0) };
  if (wantMatrix) {
    const entail: number[][] = texts.map((_, i) => texts.map((__, j) => (i === j ? 1 : 0)));
    pairs.forEach(([i, j], n) => (entail[i]![j] = yesShare(scored[n]!)));
    out.semantic_matrix_entail = entail;
    out.semantic_matrix_contra = entail.map((row, i) => row.map((p, j) => (i === j ? 0 : 1 - p)));
  }
  if (wantSimilarity) {
    out.greedy_sentence_similarity = texts.map((_, s) => (yesShare(scored[pairs.length + 2 * s]!) + yesShare(scored[pairs.length + 2 * s + 1]!)) / 2);
  }
  if (wantPTrue) out.p_true = scored.at(-1)![0]!;
  if (needed.has("semantic_classes_entail") && !wantMatrix && k > 0) {
    const { classes, calls } = await classesByRepresentatives(adapter, texts, entailAsk, o);
    out.semantic_classes_entail = classes;
    out.judgeCalls += calls;
  }
  return out;
}

/**
 * The class builder asks about (representative, candidate) pairs only. Its questions depend on earlier answers,
 * so it is replayed: unknown pairs answer "not equivalent" and are collected, then judged in one batch (both
 * directions), until a replay asks nothing new. At most K × classes pairs are ever judged.
 */
async function classesByRepresentatives(
  adapter: ModelAdapter, texts: readonly string[], entailAsk: (a: string, b: string) => Ask, o: JudgeOptions,
): Promise<{ classes: SemanticClasses; calls: number }> {
  const known = new Map<string, boolean>();
  let calls = 0;
  for (;;) {
    const unknown: [number, number][] = [];
    const classes = semanticClasses(texts.length, (r, i) => {
      const v = known.get(`${r},${i}`);
      if (v === undefined) unknown.push([r, i]);
      return v ?? false;
    });
    if (unknown.length === 0) return { classes, calls };
    const scored = await score(adapter, unknown.flatMap(([r, i]) => [entailAsk(texts[r]!, texts[i]!), entailAsk(texts[i]!, texts[r]!)]), o);
    calls += 2 * unknown.length;
    // lm-polygraph's test (semanticClasses.isEntailment) with a neutral share of 0: entailment when p(yes) > ½.
    unknown.forEach(([r, i], n) => known.set(`${r},${i}`, yesShare(scored[2 * n]!) > 0.5 && yesShare(scored[2 * n + 1]!) > 0.5));
  }
}
