import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { coverageBand, reliabilityBins, setSizeHistogram, sweepCoverage } from "../../src/run/index.js";
import { startProgress } from "../../src/cli/run/progress.js";
import { FORMATS } from "../../src/evidence/index.js";
import { conformalRank, mulberry32 } from "../../src/conformal/index.js";

/** A Beta(a, b) draw as the a-th smallest of a + b − 1 uniforms (integer a, b). */
function betaDraw(a: number, b: number, rng: () => number): number {
  const u = Array.from({ length: a + b - 1 }, rng).sort((x, y) => x - y);
  return u[a - 1]!;
}

describe("coverageBand", () => {
  it("holds the simulated test coverage of split conformal at its level", () => {
    const rng = mulberry32(42);
    const [n, m, alpha] = [200, 100, 0.1];
    const [lo, hi] = coverageBand(m, n, alpha, 0.95);
    const k = conformalRank(n, alpha);
    let inside = 0;
    const draws = 2000;
    for (let d = 0; d < draws; d++) {
      const c = betaDraw(k, n + 1 - k, rng);
      let covered = 0;
      for (let i = 0; i < m; i++) if (rng() < c) covered++;
      if (covered / m >= lo && covered / m <= hi) inside++;
    }
    expect(inside / draws).toBeGreaterThan(0.93);
    expect(lo).toBeLessThan(0.9);
    expect(hi).toBeGreaterThan(0.9);
  });
  it("is [1, 1] when the quantile is infinite (full sets)", () => {
    expect(coverageBand(10, 5, 0.1)).toEqual([1, 1]);
  });
});

describe("local analyses", () => {
  it("sweeps α: coverage tracks 1 − α on exchangeable scores", () => {
    const rng = mulberry32(5);
    const draw = () => {
      const raw = [rng(), rng(), rng(), rng()];
      const s = raw.reduce((a, b) => a + b, 0);
      const p = raw.map((x) => x / s);
      // Label drawn from p itself: the model is calibrated.
      let u = rng();
      let label = 0;
      while (label < 3 && u > p[label]!) u -= p[label++]!;
      return { probabilities: p, label };
    };
    const cal = Array.from({ length: 2000 }, draw);
    const test = Array.from({ length: 2000 }, draw);
    for (const row of sweepCoverage(cal, test, "set", "LAC", "t", [0.1, 0.3])) {
      expect(row.coverage).toBeGreaterThanOrEqual(row.band[0]);
      expect(row.coverage).toBeLessThanOrEqual(row.band[1]);
    }
  });
  it("bins Venn-Abers beliefs and counts set sizes", () => {
    const r = reliabilityBins([{ p0: 0.1, p1: 0.2, gold: true }, { p0: 0.1, p1: 0.2, gold: false }, { p0: 0.9, p1: 0.95, gold: true }]);
    expect(r.pairs).toBe(3);
    const used = r.bins.filter((b) => b.count > 0);
    expect(used.map((b) => [b.count, b.observed])).toEqual([[2, 0.5], [1, 1]]);
    expect(setSizeHistogram([1, 2, 1, 3, 1])).toEqual([{ size: 1, count: 3 }, { size: 2, count: 1 }, { size: 3, count: 1 }]);
  });
  it("cloze continues a sentence directly and asks a question as lm-eval's mmlu_continuation", () => {
    const item = (question: string) => ({ id: "x", context: question.endsWith("?") ? "" : "Lily had a ball.", question, names: ["A", "B"], texts: ["a", "b"] });
    expect(FORMATS.cloze.text(item("She played with her"))).toBe("Lily had a ball. She played with her");
    expect(FORMATS.cloze.text(item("What is 2+2?"))).toBe("Question: What is 2+2?\nAnswer:");
  });
});

describe("progress without a terminal", () => {
  it("prints plain periodic lines with rate and ETA, and a final line", async () => {
    const stream = new PassThrough() as unknown as NodeJS.WriteStream;
    let text = "";
    (stream as unknown as PassThrough).on("data", (d) => (text += String(d)));
    const p = startProgress("evidence", 10, { stream, intervalMs: 0 });
    for (let i = 0; i < 10; i++) p.increment();
    p.stop();
    expect(text).toMatch(/^evidence: 0\/10\n/);
    expect(text).toMatch(/evidence: 5\/10 \(50%, [\d.]+\/s, ETA \d+ s\)/);
    expect(text).toMatch(/evidence: 10\/10 in [\d.]+ s \([\d.]+\/s\)\n$/);
    expect(text).not.toContain("\r");
  });
});
