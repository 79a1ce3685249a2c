// rouge-score's tokenizer with NLTK's Porter stemmer, ROUGE-1/2/L and NLTK's sentence BLEU. Stems are NLTK's own
// PorterStemmer run from the nltk clone, ROUGE from a transcription of google-research's rouge-score around it
// (`python3 test/uncertainty/reference/lm_polygraph_reference.py /work/.mirror/IINemo+lm-polygraph/repo
// /work/.mirror/nltk+nltk/repo`).
import { describe, expect, it } from "vitest";
import { porterStem, rougeScore, rougeTokens, sentenceBleu } from "../../src/uncertainty/index.js";
import { REFERENCE as R } from "./reference/values.js";
import { expectClose } from "./reference/numbers.js";

describe("Porter stemmer (NLTK_EXTENSIONS mode)", () => {
  for (const [word, stem] of Object.entries(R.text.stems)) {
    it(`${word} → ${stem}`, () => expect(porterStem(word)).toBe(stem));
  }
});

describe("ROUGE F-measures with stemming", () => {
  for (const [a, b, r1, r2, rl] of R.text.rouge) {
    it(`${a} | ${b}`, () => {
      expectClose(rougeScore("rouge1", a, b), r1, "rouge1");
      expectClose(rougeScore("rouge2", a, b), r2, "rouge2");
      expectClose(rougeScore("rougeL", a, b), rl, "rougeL");
    });
  }
  it("tokenises as rouge-score: lowercase, punctuation to spaces, stems for tokens of 4+ letters", () => {
    expect(rougeTokens("The Cats, were RUNNING!")).toEqual(["the", "cat", "were", "run"]);
    expect(rougeScore("rougeL", "", "anything")).toBe(0);
  });
  it("hand-worked ROUGE-L: LCS 3 of 4 and 5 tokens, F = 2·(3/5)(3/4)/(3/5+3/4)", () => {
    expect(rougeScore("rougeL", "a b c d", "a x b y c")).toBeCloseTo((2 * 0.6 * 0.75) / 1.35, 15);
  });
});

describe("sentence BLEU (NLTK, no smoothing)", () => {
  it("is 1 for identical sentences and 0 without a unigram match", () => {
    expect(sentenceBleu(["a", "b", "c", "d"], ["a", "b", "c", "d"], [0.25, 0.25, 0.25, 0.25])).toBe(1);
    expect(sentenceBleu(["a"], ["b"], [1, 0, 0, 0])).toBe(0);
  });
  it("hand-worked: unigram precision 2/3, brevity penalty exp(1 − 4/3)", () => {
    expect(sentenceBleu(["a", "b", "c", "d"], ["a", "b", "x"], [1, 0, 0, 0])).toBeCloseTo((2 / 3) * Math.exp(1 - 4 / 3), 15);
  });
});
