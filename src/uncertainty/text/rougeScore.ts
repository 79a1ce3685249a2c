// ROUGE-N and ROUGE-L F-measures as google-research's rouge-score computes them (Lin 2004, ROUGE: A Package for
// Automatic Evaluation of Summaries): lowercase, non-[a-z0-9] runs to spaces, Porter stems for tokens longer than 3
// when stemming (lm-polygraph's use_stemmer=True; lm-eval's truthfulqa uses none), clipped n-gram overlap, and the
// LCS by its dynamic-programming table.
import { porterStem } from "./porterStemmer.js";
import { ngramCounts } from "./ngrams.js";

export type RougeType = "rouge1" | "rouge2" | "rougeL" | `rouge${number}`;

/** rouge_score.tokenize.tokenize(text, stemmer): with `stem`, PorterStemmer() as lm-polygraph's scorers use. */
export function rougeTokens(text: string, stem = true): string[] {
  const tokens = text.toLowerCase().replace(/[^a-z0-9]+/g, " ").split(/\s+/);
  const out: string[] = [];
  for (const t of tokens) {
    const s = stem && t.length > 3 ? porterStem(t) : t;
    if (/^[a-z0-9]+$/.test(s)) out.push(s);
  }
  return out;
}

function fmeasure(precision: number, recall: number): number {
  return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
}

function lcsLength(a: readonly string[], b: readonly string[]): number {
  let prev = new Int32Array(b.length + 1);
  let cur = new Int32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      cur[j] = a[i - 1] === b[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, cur[j - 1]!);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length]!;
}

/** The F-measure of `type` between already tokenised target and prediction (RougeScorer.score(...)[type].fmeasure). */
export function rougeFromTokens(type: RougeType, target: readonly string[], prediction: readonly string[]): number {
  if (type === "rougeL") {
    if (target.length === 0 || prediction.length === 0) return 0;
    const lcs = lcsLength(target, prediction);
    return fmeasure(lcs / prediction.length, lcs / target.length);
  }
  const n = Number(type.slice(5));
  if (!/^rouge[0-9]$/.test(type) || n <= 0) throw new RangeError(`unknown ROUGE type "${type}"`);
  const t = ngramCounts(target, n);
  const p = ngramCounts(prediction, n);
  let overlap = 0, tCount = 0, pCount = 0;
  for (const [g, c] of t) { overlap += Math.min(c, p.get(g) ?? 0); tCount += c; }
  for (const c of p.values()) pCount += c;
  return fmeasure(overlap / Math.max(pCount, 1), overlap / Math.max(tCount, 1));
}

export function rougeScore(type: RougeType, target: string, prediction: string, stem = true): number {
  return rougeFromTokens(type, rougeTokens(target, stem), rougeTokens(prediction, stem));
}
