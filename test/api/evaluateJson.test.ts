// setAnswerJson and evaluateResponseJson write the text JSON.stringify writes for the objects the engine would
// otherwise build (setQuery.ts): for any option names, membership, probabilities and guarantee, the same bytes.
import fc from "fast-check";
import { expect, it } from "vitest";
import { evaluateResponseJson, guaranteeJson, setAnswerJson, setAnswerNames, type Guarantee } from "../../src/api/index.js";

const name = fc.oneof(
  { weight: 10, arbitrary: fc.string({ minLength: 1, maxLength: 6 }) },
  fc.constantFrom("A", "b", "é", "\"q\"", "a\\b", "\n", "\u2028", "\ud800", "0", "1", "10", "01", "4294967295", "-1", "1.5", "__proto__", "toString", "constructor"),
);
const number = fc.oneof(
  { weight: 10, arbitrary: fc.double({ min: 0, max: 1, noNaN: true }) },
  fc.constantFrom(0, -0, 1, 5e-324, 1e-7, 0.1 + 0.2, Number.NaN, Infinity, -Infinity, 1e21),
);
const guarantee: fc.Arbitrary<Guarantee> = fc.record({
  kind: fc.constantFrom("coverage", "group_coverage"), holds: fc.boolean(), alpha: fc.option(number, { nil: undefined }), target: fc.constant(undefined),
  n: fc.nat(), method: fc.constantFrom("LAC", "APS (sample frequencies)"), profile: name, profile_version: fc.nat(), group: fc.option(name, { nil: undefined }),
  evidence_level: fc.constantFrom("L1", "L2", undefined),
}) as fc.Arbitrary<Guarantee>;

const answerCase = fc.uniqueArray(name, { minLength: 2, maxLength: 6 }).chain((names) => {
  const K = names.length;
  return fc.record({
    names: fc.constant(names), rows: fc.integer({ min: 1, max: 3 }), row: fc.nat({ max: 2 }),
    p: fc.array(number, { minLength: K, maxLength: K }), p0: fc.array(number, { minLength: 3 * K, maxLength: 3 * K }),
    p1: fc.array(number, { minLength: 3 * K, maxLength: 3 * K }), inSet: fc.array(fc.boolean(), { minLength: 3 * K, maxLength: 3 * K }), guarantee,
  });
});

it("writes a set answer as JSON.stringify writes the object setQuery.ts builds, or declines the names", () => {
  fc.assert(
    fc.property(answerCase, ({ names, row, p, p0, p1, inSet, guarantee: g }) => {
      const sorted = [...names].sort();
      const rank = Int32Array.from(names, (x) => sorted.indexOf(x));
      const at = row * names.length;
      const membership = Uint8Array.from(inSet, Number);
      const written = setAnswerNames(names, sorted);
      // The object answerSet builds (Object.fromEntries, as it does for names it does not write itself).
      const answer = {
        type: "set",
        set: names.filter((_, i) => membership[at + rank[i]!]),
        probabilities: Object.fromEntries(sorted.map((x, j) => [x, p[j]!])),
        venn_abers: Object.fromEntries(sorted.map((x, j) => [x, [p0[at + j]!, p1[at + j]!]])),
        guarantee: g,
      };
      if (!written) {
        // Declined only where an object would reorder or drop a key.
        expect(sorted.some((x) => x === "__proto__" || /^(0|[1-9]\d*)$/.test(x))).toBe(true);
        return;
      }
      expect(setAnswerJson(written, rank, membership, p, p0, p1, at, guaranteeJson(g))).toBe(JSON.stringify(answer));
    }),
    { numRuns: 3000, seed: 20261123 },
  );
});

it("writes the evaluate response as JSON.stringify writes respond's object", () => {
  const queryNames = fc.uniqueArray(name, { minLength: 1, maxLength: 5 });
  fc.assert(
    fc.property(
      queryNames,
      // A client_evidence backend is written by hand: also those it must leave to JSON.stringify (another key
      // order, an extra field, another provider, a name that is not a string).
      fc.option(fc.oneof(
        { arbitrary: fc.record({ provider: fc.constant("client_evidence"), name, access_level: fc.constantFrom("L1", "L2") }), weight: 4 },
        fc.record({ name, provider: fc.constant("client_evidence"), access_level: fc.constant("L1") }),
        fc.record({ provider: fc.constant("client_evidence"), name, access_level: fc.constant("L3"), fingerprint: fc.string() }),
        fc.record({ provider: fc.constantFrom("vllm", "client_evidence"), name: fc.oneof(name, fc.integer()), access_level: fc.constant("L1") }),
      ), { nil: undefined }),
      fc.array(fc.string(), { maxLength: 2 }),
      fc.oneof(
        { arbitrary: fc.constant({ backend_calls: 0, backend_tokens: 0 }), weight: 4 },
        fc.constant({ backend_tokens: 0, backend_calls: 0 }),
        fc.record({ backend_calls: fc.nat(), backend_tokens: fc.nat() }),
      ),
      (names, backend, warnings, usage) => {
        // The names as a parsed body lists them (the order Object.keys gives), each answer any JSON value.
        const queries = JSON.parse(`{${names.map((x, i) => `${JSON.stringify(x)}:${i}`).join(",")}}`) as Record<string, number>;
        const ordered = Object.keys(queries);
        const answers = ordered.map((x) => ({ type: "set", name: x, at: queries[x] }));
        const object = Object.fromEntries(ordered.map((x, i) => [x, answers[i]]));
        const expected = JSON.stringify(backend ? { answers: object, backend, usage, warnings } : { answers: object, usage, warnings });
        expect(evaluateResponseJson(ordered, answers.map((a) => JSON.stringify(a)), backend, usage, warnings)).toBe(expected);
      },
    ),
    { numRuns: 2000, seed: 20261123 },
  );
});
