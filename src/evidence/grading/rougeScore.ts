// ROUGE-N and summary-level ROUGE-Lsum (Lin, 2004) as Google's rouge_score package computes them with its
// defaults (RougeScorer(types), no stemmer, sentences split on newlines), and lm-eval's truthfulqa
// utils.rouge around it: " . " becomes ".\n" first, and each F-measure is reported × 100. Same definitions
// as rouge_score's tokenize.py, rouge_scorer.py (_score_ngrams, _summary_level_lcs) and scoring.fmeasure.

/** rouge_score's tokenize: lower case, every run of characters other than [a-z0-9] a separator. */
export function rougeTokenize(text: string): string[] {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, " ").split(/\s+/).filter((t) => /^[a-z0-9]+$/.test(t));
}

const fmeasure = (p: number, r: number) => (p + r > 0 ? (2 * p * r) / (p + r) : 0);

function ngrams(tokens: readonly string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i++) {
    const key = tokens.slice(i, i + n).join(" ");
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** ROUGE-N F-measure in [0, 1]. */
export function rougeN(target: string, prediction: string, n: number): number {
  const t = ngrams(rougeTokenize(target), n);
  const p = ngrams(rougeTokenize(prediction), n);
  let overlap = 0;
  for (const [g, c] of t) overlap += Math.min(c, p.get(g) ?? 0);
  let tCount = 0;
  for (const c of t.values()) tCount += c;
  let pCount = 0;
  for (const c of p.values()) pCount += c;
  return fmeasure(overlap / Math.max(pCount, 1), overlap / Math.max(tCount, 1));
}

function lcsTable(ref: readonly string[], can: readonly string[]): number[][] {
  const t = Array.from({ length: ref.length + 1 }, () => new Array<number>(can.length + 1).fill(0));
  for (let i = 1; i <= ref.length; i++) {
    for (let j = 1; j <= can.length; j++) {
      t[i]![j] = ref[i - 1] === can[j - 1] ? t[i - 1]![j - 1]! + 1 : Math.max(t[i - 1]![j]!, t[i]![j - 1]!);
    }
  }
  return t;
}

/** The reference indices of one longest common subsequence, read back as rouge_score's _backtrack_norec does. */
function lcsIndices(ref: readonly string[], can: readonly string[]): number[] {
  const t = lcsTable(ref, can);
  const out: number[] = [];
  let i = ref.length;
  let j = can.length;
  while (i > 0 && j > 0) {
    if (ref[i - 1] === can[j - 1]) {
      out.unshift(i - 1);
      i--;
      j--;
    } else if (t[i]![j - 1]! > t[i - 1]![j]!) j--;
    else i--;
  }
  return out;
}

const sentences = (text: string) => text.split("\n").filter((s) => s.length > 0).map(rougeTokenize);

/** Summary-level ROUGE-Lsum F-measure in [0, 1]: union LCS per reference sentence, each token counted once. */
export function rougeLsum(target: string, prediction: string): number {
  const refSents = sentences(target);
  const canSents = sentences(prediction);
  if (refSents.length === 0 || canSents.length === 0) return 0;
  const m = refSents.reduce((s, x) => s + x.length, 0);
  const n = canSents.reduce((s, x) => s + x.length, 0);
  if (m === 0 || n === 0) return 0;
  const countR = new Map<string, number>();
  const countC = new Map<string, number>();
  for (const s of refSents) for (const tok of s) countR.set(tok, (countR.get(tok) ?? 0) + 1);
  for (const s of canSents) for (const tok of s) countC.set(tok, (countC.get(tok) ?? 0) + 1);
  let hits = 0;
  for (const r of refSents) {
    const union = [...new Set(canSents.flatMap((c) => lcsIndices(r, c)))].sort((a, b) => a - b);
    for (const idx of union) {
      const tok = r[idx]!;
      if ((countC.get(tok) ?? 0) > 0 && (countR.get(tok) ?? 0) > 0) {
        hits++;
        countC.set(tok, countC.get(tok)! - 1);
        countR.set(tok, countR.get(tok)! - 1);
      }
    }
  }
  return fmeasure(hits / n, hits / m);
}

export interface TruthfulRouge {
  rouge1: number;
  rouge2: number;
  rougeLsum: number;
}

/** lm-eval truthfulqa utils.rouge([ref], [pred]): the three F-measures × 100 after " . " → ".\n" on both texts. */
export function truthfulqaRouge(reference: string, prediction: string): TruthfulRouge {
  const ref = reference.replaceAll(" . ", ".\n");
  const pred = prediction.replaceAll(" . ", ".\n");
  return { rouge1: rougeN(ref, pred, 1) * 100, rouge2: rougeN(ref, pred, 2) * 100, rougeLsum: rougeLsum(ref, pred) * 100 };
}
