// BLEU (Papineni et al., 2002) as sacrebleu computes `corpus_bleu([hypothesis], [[reference]])` with the
// settings of lm-eval's truthfulqa utils.bleu: tokenize "intl" (mteval-v14's international tokenizer),
// smooth_method "exp" (NIST's geometric halving of zero counts), case kept, effective order off, 4-grams.
// Same definitions as sacrebleu 2.x's metrics/bleu.py, tokenizers/tokenizer_intl.py and utils.my_log.
import { pyRstrip, pySplit } from "./pythonText.js";

const MAX_ORDER = 4;
const INTL: [RegExp, string][] = [
  [/(\P{N})(\p{P})/gu, "$1 $2 "],
  [/(\p{P})(\P{N})/gu, " $1 $2"],
  [/(\p{S})/gu, " $1 "],
];

/** sacrebleu's TokenizerV14International: punctuation split off unless between digits, symbols split off. */
export function intlTokenize(line: string): string {
  let out = line;
  for (const [re, repl] of INTL) out = out.replace(re, repl);
  return pySplit(out).join(" ");
}

function ngramCounts(tokens: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (let n = 1; n <= MAX_ORDER; n++) {
    for (let i = 0; i + n <= tokens.length; i++) {
      const key = `${n}\u0000${JSON.stringify(tokens.slice(i, i + n))}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return counts;
}

/** utils.my_log: log floored at -9999999999 for a zero precision. */
const myLog = (x: number) => (x === 0 ? -9999999999 : Math.log(x));

/** BLEU in [0, 100] of one hypothesis against one reference, as lm-eval's truthfulqa `bleu([[ref]], [pred])`. */
export function sacreBleu(reference: string, hypothesis: string): number {
  const hyp = pySplit(intlTokenize(pyRstrip(hypothesis)));
  const ref = pySplit(intlTokenize(pyRstrip(reference)));
  const refCounts = ngramCounts(ref);
  const correct = new Array<number>(MAX_ORDER).fill(0);
  const total = new Array<number>(MAX_ORDER).fill(0);
  for (const [key, count] of ngramCounts(hyp)) {
    const n = Number(key.slice(0, key.indexOf("\u0000"))) - 1;
    total[n]! += count;
    const inRef = refCounts.get(key);
    if (inRef !== undefined) correct[n]! += Math.min(count, inRef);
  }
  const sysLen = hyp.length;
  const refLen = ref.length;
  let bp = 1;
  if (sysLen < refLen) bp = sysLen > 0 ? Math.exp(1 - refLen / sysLen) : 0;
  if (!correct.some((c) => c > 0)) return 0;
  const precisions = new Array<number>(MAX_ORDER).fill(0);
  let smooth = 1;
  for (let n = 0; n < MAX_ORDER; n++) {
    if (total[n] === 0) break;
    if (correct[n] === 0) {
      smooth *= 2;
      precisions[n] = 100 / (smooth * total[n]!);
    } else {
      precisions[n] = (100 * correct[n]!) / total[n]!;
    }
  }
  let sum = 0;
  for (const p of precisions) sum += myLog(p);
  return bp * Math.exp(sum / MAX_ORDER);
}
