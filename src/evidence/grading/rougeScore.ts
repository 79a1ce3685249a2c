// lm-eval's truthfulqa utils.rouge around Google's rouge_score with its defaults (RougeScorer(types), no stemmer,
// sentences split on newlines): " . " becomes ".\n" first, and each F-measure is reported × 100. The ROUGE
// definitions themselves are the uncertainty scores' (one transcription of rouge_score serves both).
import { rougeLsum, rougeScore } from "../../uncertainty/index.js";

export interface TruthfulRouge {
  rouge1: number;
  rouge2: number;
  rougeLsum: number;
}

/** lm-eval truthfulqa utils.rouge([ref], [pred]): the three F-measures × 100 after " . " → ".\n" on both texts. */
export function truthfulqaRouge(reference: string, prediction: string): TruthfulRouge {
  const ref = reference.replaceAll(" . ", ".\n");
  const pred = prediction.replaceAll(" . ", ".\n");
  return {
    rouge1: rougeScore("rouge1", ref, pred, false) * 100,
    rouge2: rougeScore("rouge2", ref, pred, false) * 100,
    rougeLsum: rougeLsum(ref, pred, false) * 100,
  };
}
