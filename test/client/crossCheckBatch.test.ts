// The cross-check predicts a request's set queries together through the batch API: every local answer equals
// the one the per-query path gives (recomputed here one query at a time by a second checker), so checking a
// response made of those answers finds nothing, and a tampered set is still caught by query and field.
import { describe, expect, it } from "vitest";
import type { Answer, EvaluateRequest, ExampleRecord } from "../../src/api/index.js";
import { CrossChecker } from "../../src/client/index.js";
import { mulberry32 } from "../../src/conformal/index.js";

const NAMES = ["A", "B", "C", "D"];
const rng = mulberry32(31);
const probs = () => {
  const raw = NAMES.map(() => rng() ** 2 + 0.01);
  const total = raw.reduce((a, b) => a + b, 0);
  return Object.fromEntries(NAMES.map((n, i) => [n, raw[i]! / total]));
};
const examples: ExampleRecord[] = Array.from({ length: 400 }, () => {
  const p = probs();
  const label = rng() < 0.6 ? NAMES.reduce((a, b) => (p[b]! > p[a]! ? b : a)) : NAMES[Math.floor(rng() * 4)]!;
  return { context: "c", label, metadata: { evidence: { option_probabilities: p } } };
});
const profile = { name: "p", version: 3, method: "APS", alpha: 0.1 };

describe("cross-check of many set queries in one request", () => {
  it("gives every query the per-query answer (APS, LAC, RAPS, own α), and still catches a tampered set", () => {
    const queries: EvaluateRequest["queries"] = {};
    for (let k = 0; k < 30; k++) {
      queries[`q${k}`] = {
        type: "set", instructions: "pick", options: { A: "a", B: "b", C: "c", D: "d" }, calibration_profile: "p",
        evidence: { option_probabilities: probs() },
        ...(k % 3 === 1 ? { method: "LAC", alpha: 0.2 } : k % 3 === 2 ? { method: "RAPS" } : {}),
      } as EvaluateRequest["queries"][string];
    }
    const request = { context: "c", backend: { provider: "client_evidence", name: "t", access_level: "L1" }, queries } as EvaluateRequest;
    const oneByOne = new CrossChecker(profile, examples);
    const answers = Object.fromEntries(Object.entries(queries).map(([name, q]) => [name, oneByOne.localSetAnswer(name, q as never) as unknown as Answer]));
    const checker = new CrossChecker(profile, examples);
    expect(checker.check(request, { answers })).toEqual([]);
    expect(checker.report.answers).toBe(30);
    const sets = Object.values(answers).map((a) => (a as { set: string[] }).set.length);
    expect(Math.min(...sets)).toBeLessThan(Math.max(...sets)); // the sets differ: the comparison has teeth
    const tampered = { ...answers, q4: { ...(answers.q4 as object), set: ["A", "B", "C", "D", "E"] } as unknown as Answer };
    const found = new CrossChecker(profile, examples).check(request, { answers: tampered });
    expect(found.map((d) => d.query)).toEqual(["q4"]);
  });
});
