// A score travels as belief / gate evidence: its confidence as p(yes), and the scorer's name and settings in the
// prompt_template_hash, so that a strict profile calibrated on one scorer refuses another.
import { describe, expect, it } from "vitest";
import { promptTemplateHash, scoredPromptTemplateHash } from "../../src/evidence/index.js";
import { eccentricityScorer, perplexity, renyiNegScorer, scoreEvidence, scorerKey, SCORERS } from "../../src/uncertainty/index.js";

describe("scorer identity in the prompt_template_hash", () => {
  it("differs between every two registered scorers, and from the plain template", () => {
    const hashes = new Set(SCORERS.map((s) => scoredPromptTemplateHash("gate", s)));
    expect(hashes.size).toBe(SCORERS.length);
    expect(hashes.has(promptTemplateHash("gate"))).toBe(false);
  });
  it("differs when a setting differs under the same name, and is stable for the same settings", () => {
    expect(scorerKey(renyiNegScorer({ alpha: 0.5 }))).toBe(scorerKey(renyiNegScorer()));
    expect(scoredPromptTemplateHash("belief", renyiNegScorer({ alpha: 0.3 }))).not.toBe(scoredPromptTemplateHash("belief", renyiNegScorer()));
    expect(scorerKey(eccentricityScorer({ thres: 0.8 }))).not.toBe(scorerKey(eccentricityScorer()));
  });
  it("scoreEvidence gives p(yes) = the mapped confidence and p(no) its complement", () => {
    const e = scoreEvidence(perplexity, Math.log(2));
    expect(e.option_probabilities.yes).toBeCloseTo(0.5, 15);
    expect(e.option_probabilities.yes + e.option_probabilities.no).toBe(1);
  });
  it("every confidence map is non-increasing in u and stays in [0, 1]", () => {
    const us = [-50, -3, -1, -0.5, 0, 0.25, 0.5, 1, 1.5, 3, 50];
    for (const s of SCORERS) {
      const c = us.map((u) => s.confidence(u));
      for (let i = 1; i < c.length; i++) expect(c[i]!, s.name).toBeLessThanOrEqual(c[i - 1]!);
      for (const x of c) { expect(x).toBeGreaterThanOrEqual(0); expect(x).toBeLessThanOrEqual(1); }
    }
  });
});
