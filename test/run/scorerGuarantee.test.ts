// Each scorer's guarantee over repeated splits (run/queryTypes/scorerGuarantee.ts), tested statistically on
// synthetic graded answers whose chance of being right rises with the score: the gate's realized risk of approving
// a wrong answer stays inside each repeat's band and at most α on average over 200 splits; the belief's
// right-answer frequency inside its Venn–Abers band; and the abstention rate is what the decisions were.
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../src/conformal/index.js";
import { repeatSplit, scorerGuarantee, type ScoredGrade } from "../../src/run/queryTypes/scorerGuarantee.js";
import { scorerByName } from "../../src/uncertainty/index.js";

const MSP = scorerByName("MaximumSequenceProbability")!;

/** n answers: MSP's uncertainty is −log p with p uniform; the answer is right with probability p. */
function answers(n: number, seed: number): ScoredGrade[] {
  const rng = mulberry32(seed);
  return Array.from({ length: n }, () => {
    const p = 0.02 + 0.96 * rng();
    return { scores: { [MSP.name]: -Math.log(p) }, correct: rng() < p };
  });
}

describe("a scorer's guarantee over repeated splits", () => {
  it("gate: the realized risk lies in each repeat's band and averages at most α", () => {
    const items = answers(400, 3);
    for (const alpha of [0.1, 0.2]) {
      const g = scorerGuarantee(MSP, items, { type: "gate", target: alpha, seed: 1, repeats: 200 });
      expect(g.value.perRepeat).toHaveLength(200);
      // 99.9% bands: 200 repeats leave about 0.2 outside by chance.
      expect(g.inBand).toBeGreaterThanOrEqual(199);
      // Conformal risk control holds in expectation; the mean over 200 splits is within 3 of its standard errors.
      expect(g.value.mean).toBeLessThanOrEqual(alpha + (3 * g.value.sd) / Math.sqrt(200));
      expect(g.value.mean).toBeGreaterThan(alpha / 2);
      expect(g.abstention!.mean).toBeGreaterThan(0);
      expect(g.abstention!.mean).toBeLessThan(1);
      expect(g.target).toBe(alpha);
      expect(g.calibration + g.test).toBe(400);
    }
    // A larger α approves more: less abstention.
    const strict = scorerGuarantee(MSP, items, { type: "gate", target: 0.1, seed: 1 });
    const loose = scorerGuarantee(MSP, items, { type: "gate", target: 0.3, seed: 1 });
    expect(loose.abstention!.mean).toBeLessThan(strict.abstention!.mean);
  });

  it("belief: the right-answer frequency lies inside each repeat's Venn–Abers band, and Venn–Abers lowers a miscalibrated ECE", () => {
    // Overconfident: the confidence is p^(1/3), the chance of a right answer p.
    const rng = mulberry32(5);
    const items: ScoredGrade[] = Array.from({ length: 400 }, () => {
      const p = 0.02 + 0.96 * rng();
      return { scores: { [MSP.name]: -Math.log(p) / 3 }, correct: rng() < p };
    });
    const g = scorerGuarantee(MSP, items, { type: "belief", target: 0.1, seed: 2, repeats: 100 });
    expect(g.abstention).toBeNull();
    expect(g.inBand).toBeGreaterThanOrEqual(99);
    expect(g.eceAfter.mean).toBeLessThan(g.eceBefore.mean);
  });

  it("splits the same items for every scorer and α, and differently per label and repeat", () => {
    const a = repeatSplit(50, 0.5, 1, "task", 0);
    expect(repeatSplit(50, 0.5, 1, "task", 0)).toEqual(a);
    expect(repeatSplit(50, 0.5, 1, "task", 1).cal).not.toEqual(a.cal);
    expect(repeatSplit(50, 0.5, 1, "other", 0).cal).not.toEqual(a.cal);
    expect([...a.cal, ...a.test].sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });
});
