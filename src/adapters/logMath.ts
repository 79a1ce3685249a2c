// Log-space helpers shared by the adapters: log-probabilities are summed, never probabilities multiplied,
// so long continuations do not underflow.

export function logSumExp(values: readonly number[]): number {
  let max = -Infinity;
  for (const v of values) if (v > max) max = v;
  if (max === -Infinity) return -Infinity;
  let sum = 0;
  for (const v of values) sum += Math.exp(v - max);
  return max + Math.log(sum);
}

/** Log-softmax of one row of logits, in float64. */
export function logSoftmax(logits: ArrayLike<number>, start = 0, length = logits.length - start): Float64Array {
  const out = new Float64Array(length);
  let max = -Infinity;
  for (let i = 0; i < length; i++) if (logits[start + i]! > max) max = logits[start + i]!;
  let sum = 0;
  for (let i = 0; i < length; i++) sum += Math.exp(logits[start + i]! - max);
  const lse = max + Math.log(sum);
  for (let i = 0; i < length; i++) out[i] = logits[start + i]! - lse;
  return out;
}
