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
 * Draws one token from `(token, logProb)` pairs at a temperature (0 = greedy). Pairs are sorted by token id
 * first so the draw does not depend on the order the engine returned them in.
 */
export function drawToken(pairs: Iterable<[number, number]>, temperature: number, rng: () => number): number {
  const sorted = [...pairs].sort((x, y) => x[0] - y[0]);
  if (sorted.length === 0) throw new Error("empty distribution");
  if (temperature <= 0) {
    let best = sorted[0]!;
    for (const p of sorted) if (p[1] > best[1]) best = p;
    return best[0];
  }
  const scaled = sorted.map(([, lp]) => lp / temperature);
  const max = Math.max(...scaled);
  const weights = scaled.map((s) => Math.exp(s - max));
  const total = weights.reduce((s, w) => s + w, 0);
  let u = rng() * total;
  for (let i = 0; i < weights.length; i++) {
    u -= weights[i]!;
    if (u < 0) return sorted[i]![0];
  }
  return sorted[sorted.length - 1]![0];
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
