// safeParseEvidence answers plain probability maps without zod; for any input it must return exactly what
// evidenceSchema.safeParse returns (same success, same data) — the fast path is invisible.
import fc from "fast-check";
import { expect, it } from "vitest";
import { evidenceSchema, safeParseEvidence } from "../../src/api/index.js";

const probability = fc.oneof(
  { weight: 20, arbitrary: fc.double({ min: 0, max: 1, noNaN: true }) },
  fc.constantFrom(-0, -0.1, 1.5, Number.NaN, Infinity, "0.5", null),
);
const map = fc.oneof(
  { weight: 10, arbitrary: fc.dictionary(fc.constantFrom("a", "b", "yes", "no", "__proto__", "toString", ""), probability, { maxKeys: 4 }) },
  fc.constantFrom(null, [], [0.5], "a", 3, undefined),
);
const evidence = fc.oneof(
  { weight: 10, arbitrary: fc.record({ option_probabilities: map, level_probabilities: map }, { requiredKeys: [] }) },
  fc.record({ option_probabilities: map, samples: fc.array(fc.string(), { maxLength: 2 }) }, { requiredKeys: [] }),
  fc.record({ option_probabilities: map, hidden_states: fc.array(fc.double(), { maxLength: 2 }), claim_scoring: fc.constantFrom("client", "server") }, { requiredKeys: [] }),
  fc.record({ option_probabilities: map, extra: fc.anything() }),
  fc.constantFrom(null, [], "evidence", 1, true),
);

it("returns what evidenceSchema.safeParse returns, for any evidence", () => {
  fc.assert(
    fc.property(evidence, (raw) => {
      // JSON round trip: evidence arrives parsed from a body, where "__proto__" is an own key.
      const input = raw === undefined ? raw : JSON.parse(JSON.stringify(raw, (_k, v) => (Number.isNaN(v) ? "NaN" : v)));
      const fast = safeParseEvidence(input);
      const slow = evidenceSchema.safeParse(input);
      expect(fast.success).toBe(slow.success);
      if (fast.success && slow.success) expect(fast.data).toEqual(slow.data);
    }),
    { numRuns: 3000, seed: 20261123 },
  );
});
