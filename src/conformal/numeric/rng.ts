// Seeded random sources. Every randomized answer takes an injected `rng`, so the service and the
// client-side cross-check reproduce it bit for bit from the same seed (integer arithmetic only).

/** A source of uniform numbers in [0, 1). */
export type Rng = () => number;

/** mulberry32 (Tommy Ettinger's 32-bit generator): fast, 2^32 period, identical on every JS engine. */
export function mulberry32(seed: number): Rng {
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
 * 32-bit seed from a string: FNV-1a over the UTF-16 code units, then a murmur3 finaliser so that
 * near-identical strings give unrelated seeds. Use e.g. `seedFromString(profile + "@" + version + "/" + query)`.
 */
export function seedFromString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Shorthand: `mulberry32(seedFromString(text))`. */
export function rngFromString(text: string): Rng {
  return mulberry32(seedFromString(text));
}

/** Fisher–Yates permutation of 0..n-1 drawn from `rng`. */
export function permutation(n: number, rng: Rng): Int32Array {
  const p = new Int32Array(n);
  for (let i = 0; i < n; i++) p[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    const t = p[i]!;
    p[i] = p[j]!;
    p[j] = t;
  }
  return p;
}
