// Lexical similarity: minus the mean pairwise similarity of the K samples, by ROUGE-1/2/L (rouge-score, stemmed) or
// sentence BLEU (NLTK) (Fomicheva et al. 2020, Unsupervised Quality Estimation for NMT; Kuhn et al. 2023,
// arXiv:2302.09664; lm-polygraph estimators/lexical_similarity.py).
import { defineScorer, type Scorer } from "../scorer.js";
import { rougeFromTokens, rougeTokens, type RougeType } from "../text/rougeScore.js";
import { sentenceBleu } from "../text/sentenceBleu.js";
import { pythonSplit } from "../text/whitespace.js";

export type LexicalMetric = "rougeL" | "rouge1" | "rouge2" | "BLEU";

/** lm-polygraph's BLEU weights by the shorter sentence's length (0.33, not 1/3, as it writes them). */
function bleuWeights(minLength: number): number[] {
  if (minLength === 1) return [1, 0, 0, 0];
  if (minLength === 2) return [0.5, 0.5, 0, 0];
  if (minLength === 3) return [0.33, 0.33, 0.33, 0];
  return [0.25, 0.25, 0.25, 0.25];
}

export function lexicalSimilarityScorer({ metric = "rougeL" }: { metric?: LexicalMetric } = {}): Scorer {
  return defineScorer({
    name: `LexicalSimilarity_${metric}`,
    statistics: ["sample_texts"],
    settings: { metric },
    confidence: "-u",
    score: (s) => {
      const texts = s.sample_texts!;
      // Each text is tokenised once, not once per pair (the same tokens rouge-score makes per call).
      const tokens = texts.map(metric === "BLEU" ? pythonSplit : rougeTokens);
      let total = 0;
      let pairs = 0;
      for (let i = 0; i < texts.length; i++) {
        for (let j = i + 1; j < texts.length; j++) {
          total += metric === "BLEU"
            ? sentenceBleu(tokens[i]!, tokens[j]!, bleuWeights(Math.min(tokens[i]!.length, tokens[j]!.length)))
            : rougeFromTokens(metric as RougeType, tokens[i]!, tokens[j]!);
          pairs++;
        }
      }
      return -(pairs === 0 ? NaN : total / pairs);
    },
  });
}

export const lexicalSimilarity = lexicalSimilarityScorer();
