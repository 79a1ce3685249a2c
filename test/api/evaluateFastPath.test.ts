// The evaluate fast path must be invisible: for any input, parseEvaluateRequest (which tries the fast path
// first) returns exactly what the zod schema returns, and rejects exactly what it rejects.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { evaluateRequestSchema, parseEvaluateRequest, ValidationError } from "../../src/api/index.js";
import { fastEvaluateRequestShape, fastRulesHold } from "../../src/api/evaluateFastPath.js";
import { evaluateRuleIssues } from "../../src/api/evidenceRules.js";

/** Mostly what a valid request holds, sometimes what breaks it: each field fails on its own now and then. */
const mostly = <T, U>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<U>) => fc.oneof({ arbitrary: good, weight: 40 }, { arbitrary: bad, weight: 1 });

const optionNames = mostly(
  fc.uniqueArray(fc.constantFrom("a", "b", "c", "d", "yes", "no"), { minLength: 2, maxLength: 4 }),
  fc.uniqueArray(fc.constantFrom("a", ""), { minLength: 1, maxLength: 2 }),
);
const probability = mostly(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(-0.1, 1.5, Number.NaN));

function setQuery() {
  return optionNames.chain((names) =>
    fc.record(
      {
        type: mostly(fc.constant("set"), fc.constant("belief")),
        instructions: mostly(fc.oneof({ arbitrary: fc.string(), weight: 6 }, fc.dictionary(fc.string(), fc.string())), fc.constant(3)),
        options: fc.constant(Object.fromEntries(names.map((n) => [n, `option ${n}`]))),
        alpha: mostly(fc.double({ min: 0.01, max: 0.5, noNaN: true }), fc.constantFrom(0, 1, "0.1")),
        method: mostly(fc.constantFrom("LAC", "aps", "Raps"), fc.constant("bogus")),
        group_by: mostly(fc.constant("g1"), fc.constant("")),
        backend_access_hint: mostly(fc.constantFrom("auto", "exact"), fc.constant("nope")),
        calibration_profile: mostly(fc.constantFrom("story", "p-1.v2"), fc.constantFrom("a b", "", "x".repeat(129))),
        evidence: fc.oneof(
          { weight: 12, arbitrary:
          fc.record({
            option_probabilities: fc.tuple(...names.map(() => probability)).map((ps) => {
              const total = ps.reduce((s, p) => s + (Number.isFinite(p) ? p : 0), 0) || 1;
              return Object.fromEntries(names.map((n, i) => [n, ps[i]! / total]));
            }),
          }) },
          fc.record({ option_probabilities: fc.constant({ a: 0.5, z: 0.5 }) }),
          // Sums at and past the tolerance's edge, and level probabilities a set query does not take.
          fc.record({
            option_probabilities: fc.constantFrom(0.998, 0.9991, 1.0009, 1.002).map((total) =>
              Object.fromEntries(names.map((n, i) => [n, i === 0 ? total - (names.length - 1) * 0.1 : 0.1]))),
          }),
          fc.record({
            option_probabilities: fc.constant(Object.fromEntries(names.map((n) => [n, 1 / names.length]))),
            level_probabilities: fc.constant({ a: 1 }),
          }),
          fc.record({ samples: fc.array(fc.string(), { minLength: 1, maxLength: 2 }) }),
          fc.record({ option_probabilities: fc.constant({ a: 1 }), hidden_states: fc.array(fc.double({ noNaN: true }), { maxLength: 3 }) }),
        ),
        extra: mostly(fc.string(), fc.anything()),
      },
      { requiredKeys: ["type", "instructions", "options", "calibration_profile", "evidence"] },
    ),
  );
}

const request = fc.record(
  {
    context: mostly(fc.oneof({ arbitrary: fc.string(), weight: 6 }, fc.dictionary(fc.string(), fc.string()), fc.array(fc.integer())), fc.constant(null)),
    backend: fc.record({
      provider: mostly(fc.constant("client_evidence"), fc.constant("vllm")),
      name: mostly(fc.constant("local"), fc.constant("")),
      access_level: mostly(fc.constantFrom("L1", "L2", "L3", "L4"), fc.constantFrom("L0", "L5")),
    }),
    queries: fc.dictionary(mostly(fc.constantFrom("q1", "q2", "q3"), fc.constant("")), setQuery(), { minKeys: 1, maxKeys: 3 }),
    note: mostly(fc.string(), fc.anything()),
  },
  { requiredKeys: ["context", "queries", "backend"] },
);

function viaSchema(value: unknown): { ok: true; data: unknown } | { ok: false } {
  const r = evaluateRequestSchema.safeParse(value);
  return r.success ? { ok: true, data: r.data } : { ok: false };
}

function viaParse(value: unknown, options?: { parsedJson: boolean }): { ok: true; data: unknown } | { ok: false } {
  try {
    return { ok: true, data: parseEvaluateRequest(value, options) };
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return { ok: false };
  }
}

describe("the evaluate fast path", () => {
  it("accepts and returns exactly what the schema does, over random requests", () => {
    let fastTaken = 0;
    let rulesHeldFast = 0;
    let accepted = 0;
    fc.assert(
      // What a service sees is JSON.parse output, so the requests go through JSON first.
      fc.property(request.map((r) => JSON.parse(JSON.stringify(r)) as unknown), (value) => {
        const fast = fastEvaluateRequestShape(value);
        if (fast !== undefined) fastTaken++;
        // JSON.parse output checked as such (as the service checks its bodies) gives the same.
        const fastParsed = fastEvaluateRequestShape(value, { parsedJson: true });
        expect(JSON.stringify(fastParsed)).toBe(JSON.stringify(fast));
        expect(fastParsed).toEqual(fast);
        // The rules' shortcut never passes what the rules themselves would refuse.
        if (fast !== undefined && fastRulesHold(fast)) {
          rulesHeldFast++;
          expect(evaluateRuleIssues(fast as Parameters<typeof evaluateRuleIssues>[0])).toEqual([]);
        }
        const expected = viaSchema(value);
        const actual = viaParse(value);
        const actualParsed = viaParse(value, { parsedJson: true });
        expect(JSON.stringify(actualParsed)).toBe(JSON.stringify(actual));
        if (expected.ok) accepted++;
        expect(actual.ok).toBe(expected.ok);
        if (expected.ok && actual.ok) {
          // Same keys in the same order, same values.
          expect(JSON.stringify(actual.data)).toBe(JSON.stringify(expected.data));
          expect(actual.data).toEqual(expected.data);
        }
      }),
      { numRuns: 4000, seed: 20261122 },
    );
    // The comparison means something only if both paths were exercised, on valid and invalid requests.
    expect(fastTaken).toBeGreaterThan(200);
    expect(rulesHeldFast).toBeGreaterThan(200);
    expect(accepted).toBeGreaterThan(200);
    expect(accepted).toBeLessThan(4000);
  });
});
