// Seeded sampling, done by us rather than the engine, so that the same seed gives the same samples on every
// engine and machine (an engine's own sampler may change between releases).

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
  let sorted = [...pairs].sort((x, y) => x[0] - y[0]);
  if (sorted.length === 0) throw new Error("empty distribution");
  if (temperature <= 0) {
    let best = sorted[0]!;
    for (const p of sorted) if (p[1] > best[1]) best = p;
    return best[0];
  }
  const scaled = sorted.map(([, lp]) => lp / temperature);
  const max = Math.max(...scaled);
  let weights = scaled.map((s) => Math.exp(s - max));
  if (topP < 1) {
    const keep = nucleus(weights, topP);
    sorted = sorted.filter((_, i) => keep[i]);
    weights = weights.filter((_, i) => keep[i]);
  }
  const total = weights.reduce((s, w) => s + w, 0);
  let u = rng() * total;
  for (let i = 0; i < weights.length; i++) {
    u -= weights[i]!;
    if (u < 0) return sorted[i]![0];
  }
  return sorted[sorted.length - 1]![0];
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
