// The seeded draw over a dense row of log-probabilities (generation's path) against the draw over pairs it
// replaces: the same token for every seed, temperature and nucleus, whatever order the pairs come in.
import { describe, expect, it } from "vitest";
import { drawFromLogProbs, drawToken, sampleSeed, seededRng } from "../../src/adapters/seededSampler.js";

function row(seed: number, size: number): Float64Array {
  const rng = seededRng(seed);
  const logits = Array.from({ length: size }, () => 6 * rng());
  const z = Math.log(logits.reduce((s, x) => s + Math.exp(x), 0));
  // A few tokens without mass, as a float32 softmax that underflows leaves them.
  return Float64Array.from(logits, (x, t) => (t % 7 === 3 ? -Infinity : x - z));
}

describe("drawFromLogProbs", () => {
  it("draws what drawToken draws from the same distribution given as shuffled pairs", () => {
    let differentTokens = 0;
    for (let r = 0; r < 40; r++) {
      const lp = row(r, 64);
      const pairs = [...lp.entries()].filter(([, x]) => x > -Infinity).reverse() as [number, number][];
      for (const [temperature, topP] of [[1, 1], [0.7, 0.9], [1.3, 0.5], [0, 1]] as const) {
        const a = drawFromLogProbs(lp, temperature, seededRng(sampleSeed(r, 1)), topP);
        const b = drawToken(pairs, temperature, seededRng(sampleSeed(r, 1)), topP);
        expect(a).toBe(b);
        expect(lp[a]).toBeGreaterThan(-Infinity);
        if (a !== drawFromLogProbs(lp, 0, seededRng(0))) differentTokens++;
      }
    }
    // The draws are not all the argmax: the comparison covers real sampling.
    expect(differentTokens).toBeGreaterThan(20);
  });

  it("refuses a row without mass", () => {
    expect(() => drawFromLogProbs(new Float64Array(4).fill(-Infinity), 1, seededRng(1))).toThrow(/empty/);
  });
});
