// The compiled evaluate path must be invisible: for any request, parseEvaluateRequest (which tries zod's compiled
// code of the common request first) accepts and returns exactly what the zod schema's interpreter does, and
// refuses exactly what it refuses with the same fields named. Requests are random near the schema's edges:
// bounds, patterns, types, unknown keys, and the query types and backends the compiled path leaves to zod.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  ACCESS_HINTS, dottedPath, evaluateRequestSchema, evaluateRuleIssuesOf, fieldIssues, parseEvaluateRequest,
  PROFILE_NAME_PATTERN, ValidationError,
} from "../../src/api/index.js";
import { commonEvaluateRequestParser } from "../../src/api/evaluateCompiled.js";

/** Mostly what a valid request holds, sometimes what breaks it: each field fails on its own now and then. */
const mostly = <T, U>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<U>) => fc.oneof({ arbitrary: good, weight: 60 }, { arbitrary: bad, weight: 1 });

const content = fc.oneof({ arbitrary: fc.string({ maxLength: 8 }), weight: 6 }, fc.dictionary(fc.string({ maxLength: 3 }), fc.string({ maxLength: 3 }), { maxKeys: 2 }), fc.array(fc.integer(), { maxLength: 2 }));
const badContent = fc.constantFrom(null, 3, true);
const optionNames = mostly(
  fc.uniqueArray(fc.constantFrom("a", "b", "c", "d", "yes", "no"), { minLength: 2, maxLength: 4 }),
  fc.uniqueArray(fc.constantFrom("a", "", "__proto__", "b"), { minLength: 1, maxLength: 3 }),
);
const probability = mostly(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(-1e-12, 1 + 1e-12, -0.1, 1.5, "0.5", null));
// Profile names: the pattern's own strings up to past its length bound, and strings just outside the pattern.
const profileName = mostly(
  fc.oneof(fc.stringMatching(PROFILE_NAME_PATTERN, { maxLength: 12 }), fc.integer({ min: 126, max: 129 }).map((n) => "p".repeat(n))),
  fc.constantFrom("", "a b", "-a", ".a", "é", "a/b", 7),
);
const alpha = mostly(
  fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(Number.MIN_VALUE, 1 - Number.EPSILON / 2, 0.1)),
  fc.constantFrom(0, 1, -0.1, "0.1", Infinity, null),
);
const method = mostly(fc.constantFrom("LAC", "aps", "Raps", "rAPS"), fc.constantFrom("bogus", "CQR", "", 3));

function evidence(names: string[]) {
  const matching = fc.tuple(...names.map(() => probability)).map((ps) => {
    const total = ps.reduce((s: number, p) => s + (typeof p === "number" && Number.isFinite(p) ? p : 0), 0) || 1;
    return Object.fromEntries(names.map((n, i) => [n, typeof ps[i] === "number" ? (ps[i] as number) / total : ps[i]]));
  });
  return fc.oneof(
    { weight: 12, arbitrary: fc.record({ option_probabilities: matching }) },
    fc.record({ option_probabilities: fc.constant({ a: 0.5, z: 0.5 }) }),
    // Sums at and past the rules' tolerance.
    fc.record({
      option_probabilities: fc.constantFrom(0.998, 0.9991, 1.0009, 1.002).map((total) =>
        Object.fromEntries(names.map((n, i) => [n, i === 0 ? total - (names.length - 1) * 0.1 : 0.1]))),
    }),
    fc.record({ option_probabilities: matching, level_probabilities: fc.constant({ a: 1 }) }),
    fc.record({ samples: fc.array(fc.oneof(fc.string({ maxLength: 4 }), fc.record({ text: fc.string({ maxLength: 4 }) })), { maxLength: 2 }) }),
    fc.record({ option_probabilities: matching, hidden_states: fc.oneof(fc.array(fc.double({ noNaN: true }), { maxLength: 3 }), fc.constant([[0.5, 1]])) }),
    fc.record({ option_probabilities: matching, claim_scoring: fc.constantFrom("client", "server") }),
    fc.record({ option_probabilities: matching, note: fc.jsonValue({ maxDepth: 1 }) }),
    fc.constantFrom(null, [], "evidence"),
  );
}

const setQuery = optionNames.chain((names) =>
  fc.record(
    {
      type: mostly(fc.constant("set"), fc.constantFrom("belief", "gate", 1)),
      instructions: mostly(content, badContent),
      options: mostly(fc.constant(Object.fromEntries(names.map((n) => [n, `option ${n}`]))), fc.constant(Object.fromEntries(names.map((n) => [n, 1])))),
      alpha,
      method,
      group_by: mostly(fc.constant("g1"), fc.constantFrom("", 2)),
      backend_access_hint: mostly(fc.constantFrom(...ACCESS_HINTS), fc.constantFrom("nope", "AUTO")),
      calibration_profile: profileName,
      evidence: evidence(names),
      extra: mostly(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 })),
    },
    { requiredKeys: ["type", "instructions", "options", "calibration_profile"] },
  ));
// Queries the compiled path leaves to the interpreter: valid belief queries, a judge with a cascade.
const otherQuery = fc.oneof(
  fc.record({ type: fc.constant("belief"), instructions: fc.constant("is it?"), calibration_profile: fc.constant("p1"), evidence: fc.constant({ option_probabilities: { yes: 0.7, no: 0.3 } }) }),
  fc.record({ type: fc.constant("judge"), instructions: fc.constant("which?"), calibration_profile: fc.constant("p1"), cascade: fc.constant([{ backend: "human_queue" }]) }),
);
const backend = fc.oneof(
  { weight: 20, arbitrary: fc.record(
    {
      provider: fc.constant("client_evidence"),
      name: mostly(fc.constant("local"), fc.constantFrom("", 3)),
      access_level: mostly(fc.constantFrom("L1", "L2", "L3", "L4"), fc.constantFrom("L0", "L5", "l1")),
      extra: fc.string({ maxLength: 3 }),
    },
    { requiredKeys: ["provider", "name", "access_level"] },
  ) },
  fc.constant({ provider: "vllm", model: "m", base_url: "http://127.0.0.1:1" }),
  fc.constantFrom(null, "client_evidence"),
);

const request = fc.record(
  {
    context: mostly(content, badContent),
    backend,
    queries: mostly(
      fc.dictionary(mostly(fc.constantFrom("q1", "q2", "q3"), fc.constantFrom("", "__proto__")), fc.oneof({ arbitrary: setQuery, weight: 12 }, otherQuery), { minKeys: 1, maxKeys: 3 }),
      fc.constantFrom({}, [], null),
    ),
    note: mostly(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 })),
  },
  { requiredKeys: ["context", "queries"] },
);

type Outcome = { ok: true; data: unknown } | { ok: false; issues: unknown };

/** What parseEvaluateRequest answered before it had a fast path: the interpreter, and the rules over the parts that parsed. */
function viaInterpreter(value: unknown): Outcome {
  const result = evaluateRequestSchema.safeParse(value);
  if (result.success) return { ok: true, data: result.data };
  const issues = fieldIssues(result.error);
  for (const rule of evaluateRuleIssuesOf(value)) {
    const field = dottedPath(rule.path);
    if (!issues.some((i) => i.field === field)) issues.push({ field, message: `\`${field}\` ${rule.message}` });
  }
  return { ok: false, issues };
}

function viaParse(value: unknown): Outcome {
  try {
    return { ok: true, data: parseEvaluateRequest(value) };
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return { ok: false, issues: err.issues };
  }
}

/** Same success, same value (same keys in the same order, method names normalised alike), same fields refused. */
function expectSame(actual: Outcome, expected: Outcome): void {
  expect(actual.ok).toBe(expected.ok);
  if (expected.ok && actual.ok) {
    expect(JSON.stringify(actual.data)).toBe(JSON.stringify(expected.data));
    expect(actual.data).toEqual(expected.data);
  }
  if (!expected.ok && !actual.ok) expect(actual.issues).toEqual(expected.issues);
}

describe("the compiled evaluate path", () => {
  it("is compiled from the schema: zod compiles the common request", () => {
    expect(commonEvaluateRequestParser()).toBeTypeOf("function");
  });

  it("accepts, returns and refuses exactly what the schema's interpreter does, over random requests", () => {
    const parser = commonEvaluateRequestParser()!;
    const seen = { compiled: 0, accepted: 0, refused: 0 };
    fc.assert(
      // What a service sees is JSON.parse output ("__proto__" an own key), so the requests go through JSON.
      fc.property(request.map((r) => JSON.parse(JSON.stringify(r)) as unknown), (value) => {
        const expected = viaInterpreter(value);
        const fast = parser(value);
        if (fast !== z.INVALID) {
          seen.compiled++;
          // The compiled common path never accepts what the whole schema refuses, nor parses it otherwise.
          expect(expected.ok).toBe(true);
          if (expected.ok) expect(JSON.stringify(fast)).toBe(JSON.stringify(expected.data));
        }
        if (expected.ok) seen.accepted++;
        else seen.refused++;
        expectSame(viaParse(value), expected);
      }),
      { numRuns: 4000, seed: 20261127 },
    );
    // The comparison means something only if both paths were taken, on valid and invalid requests.
    expect(seen.compiled).toBeGreaterThan(300);
    expect(seen.accepted - seen.compiled).toBeGreaterThan(20);
    expect(seen.refused).toBeGreaterThan(300);
  });

  it("parses objects a caller builds (undefined fields, no JSON round trip) as the interpreter does", () => {
    const maybeUndefined = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined, freq: 3 });
    const built = fc.record({
      context: fc.string({ maxLength: 4 }),
      backend: fc.constant({ provider: "client_evidence", name: "local", access_level: "L1" }),
      queries: fc.dictionary(fc.constantFrom("q1", "q2"), fc.record({
        type: fc.constant("set"),
        instructions: fc.string({ maxLength: 4 }),
        options: fc.constant({ a: "A", b: "B" }),
        alpha: maybeUndefined(alpha),
        method: maybeUndefined(method),
        group_by: maybeUndefined(fc.constant("g")),
        calibration_profile: profileName,
        evidence: fc.constant({ option_probabilities: { a: 0.25, b: 0.75 }, samples: undefined }),
      }), { minKeys: 1, maxKeys: 2 }),
      note: maybeUndefined(fc.string()),
    });
    fc.assert(fc.property(built, (value) => expectSame(viaParse(value), viaInterpreter(value))), { numRuns: 1000, seed: 20261128 });
  });
});
