// Summary-level ROUGE-Lsum (Lin, 2004) as rouge_score's RougeScorer computes it: sentences split on newlines, the
// union LCS of each reference sentence against every candidate sentence (_summary_level_lcs, _backtrack_norec),
// each token counted once.
import { rougeTokens } from "./rougeScore.js";

const fmeasure = (p: number, r: number) => (p + r > 0 ? (2 * p * r) / (p + r) : 0);

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

const sentences = (text: string, stem: boolean) => text.split("\n").filter((s) => s.length > 0).map((s) => rougeTokens(s, stem));

/** Summary-level ROUGE-Lsum F-measure in [0, 1]: union LCS per reference sentence, each token counted once. */
export function rougeLsum(target: string, prediction: string, stem = true): number {
  const refSents = sentences(target, stem);
  const canSents = sentences(prediction, stem);
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
