// Seeded sampling, done by us rather than the engine, so that the same seed gives the same samples on every
// engine and machine (an engine's own sampler may change between releases).

/**
 * The seed of sample `index` under a call's `seed`, so that sample i is the same whatever the number of samples
 * (every adapter's samples, and the seed sent to a server for its i-th request).
 */
export function sampleSeed(seed: number, index: number): number {
  return (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0;
}

/** mulberry32: small, fast, and good enough to draw tokens; returns floats in [0, 1). */
export function seededRng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Draws one token from `(token, logProb)` pairs at a temperature (0 = greedy), within the nucleus of
 * probability `topP` (1 = all tokens; Holtzman et al. 2020, "The Curious Case of Neural Text Degeneration").
 * Pairs are sorted by token id first so the draw does not depend on the order the engine returned them in.
 */
export function drawToken(pairs: Iterable<[number, number]>, temperature: number, rng: () => number, topP = 1): number {
  const sorted = [...pairs].sort((x, y) => x[0] - y[0]);
  return drawSorted(sorted.map((p) => p[0]), sorted.map((p) => p[1]), temperature, rng, topP);
}

/**
 * drawToken over log-probabilities indexed by token id, -Infinity where a token has no mass (a row of the full
 * distribution): the same draw, with no pairs to build and sort.
 */
export function drawFromLogProbs(logProbs: ArrayLike<number>, temperature: number, rng: () => number, topP = 1): number {
  const ids: number[] = [];
  for (let t = 0; t < logProbs.length; t++) if (logProbs[t]! > -Infinity) ids.push(t);
  return drawSorted(ids, ids.map((t) => logProbs[t]!), temperature, rng, topP);
}

/** The draw itself, over tokens in ascending id order with their log-probabilities. */
function drawSorted(ids: readonly number[], logProbs: readonly number[], temperature: number, rng: () => number, topP: number): number {
  if (ids.length === 0) throw new Error("empty distribution");
  if (temperature <= 0) {
    let best = 0;
    for (let i = 1; i < ids.length; i++) if (logProbs[i]! > logProbs[best]!) best = i;
    return ids[best]!;
  }
  let max = -Infinity;
  const scaled = logProbs.map((lp) => lp / temperature);
  for (const x of scaled) if (x > max) max = x;
  let weights = scaled.map((x) => Math.exp(x - max));
  let kept = ids;
  if (topP < 1) {
    const keep = nucleus(weights, topP);
    kept = ids.filter((_, i) => keep[i]);
    weights = weights.filter((_, i) => keep[i]);
  }
  let total = 0;
  for (const w of weights) total += w;
  let u = rng() * total;
  for (let i = 0; i < weights.length; i++) {
    u -= weights[i]!;
    if (u < 0) return kept[i]!;
  }
  return kept[kept.length - 1]!;
}

/** The smallest set of most probable entries whose mass reaches `topP` (ties go to the lower token id). */
function nucleus(weights: readonly number[], topP: number): boolean[] {
  const total = weights.reduce((s, w) => s + w, 0);
  const order = weights.map((_, i) => i).sort((a, b) => weights[b]! - weights[a]! || a - b);
  const keep = weights.map(() => false);
  let mass = 0;
  for (const i of order) {
    keep[i] = true;
    mass += weights[i]!;
    // A nucleus that reaches top_p exactly (0.5 + 0.3 of 0.8) must not take one more token for a rounding error.
    if (mass >= topP * total * (1 - 1e-12)) break;
  }
  return keep;
}

/** Cuts generated text before the first stop string; returns whether one was found. */
export function cutAtStop(text: string, stop: readonly string[]): { text: string; stopped: boolean } {
  let cut = -1;
  for (const s of stop) {
    const i = s.length > 0 ? text.indexOf(s) : -1;
    if (i >= 0 && (cut < 0 || i < cut)) cut = i;
  }
  return cut < 0 ? { text, stopped: false } : { text: text.slice(0, cut), stopped: true };
}
