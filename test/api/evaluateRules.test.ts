// Every evaluate rule of the spec, with one accepted and one rejected example, the dotted field and its sentence.
import { describe, expect, it } from "vitest";
import {
  ACCESS_LEVELS, parseEvaluateRequest, QUERY_TYPES, requiredEvidenceKeys,
  type AccessLevel, type Evidence, type QueryType,
} from "../../src/api/index.js";
import { expectRejected } from "./sentences.js";

const backend = { provider: "openai", model: "gpt-x" };
const context = { text: "Which answer is better?", candidates: { A: "first", B: "second" } };
const cascade = [{ backend }, { backend: "human_queue" }];

function query(type: QueryType, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const base = { type, instructions: "Decide.", calibration_profile: "p1" };
  switch (type) {
    case "set": return { ...base, options: { bug: "a defect", feature: "a wish" }, ...extra };
    case "interval": return { ...base, levels: ["low", "mid", "high"], ...extra };
    case "gate": return { ...base, guarantee: "risk", target: 0.1, ...extra };
    case "route": return { type, cascade, calibration_profile: "p1", guarantee: "accuracy", ...extra };
    default: return { ...base, ...extra };
  }
}

function request(q: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { context, backend, queries: { q1: q }, ...extra };
}

const clientBackend = (level: AccessLevel) => ({ provider: "client_evidence", name: "local-llama", access_level: level });

/** Evidence with exactly the keys the spec's table requires for a type at a level. */
function evidenceFor(type: QueryType, level: AccessLevel): Evidence {
  const evidence: Evidence = {};
  for (const key of requiredEvidenceKeys(type, level)) {
    if (key === "option_probabilities") {
      const names = { set: ["bug", "feature"], belief: ["yes", "no"], gate: ["pass", "fail"], judge: ["A", "B"] }[type as "set"]!;
      evidence.option_probabilities = Object.fromEntries(names.map((n, i) => [n, i === 0 ? 0.7 : 0.3]));
    }
    if (key === "level_probabilities") evidence.level_probabilities = { low: 0.2, mid: 0.5, high: 0.3 };
    if (key === "samples") evidence.samples = ["A sampled answer."];
    if (key === "claim_scoring") evidence.claim_scoring = "client";
  }
  return evidence;
}

const evidenceRequest = (type: QueryType, level: AccessLevel, evidence: Evidence | undefined) =>
  request(query(type, evidence ? { evidence } : {}), { backend: clientBackend(level) });

describe("evaluate rule 2: set options and interval levels", () => {
  it("options: 2 pass, 1 fails at queries.q1.options", () => {
    expect(() => parseEvaluateRequest(request(query("set")))).not.toThrow();
    expectRejected(() => parseEvaluateRequest(request(query("set", { options: { bug: "a defect" } }))), "queries.q1.options");
  });

  it("levels: 2 and 10 pass, 1 and 11 fail at queries.q1.levels", () => {
    const levels = (n: number) => Array.from({ length: n }, (_, i) => `L${i}`);
    expect(() => parseEvaluateRequest(request(query("interval", { levels: levels(2) })))).not.toThrow();
    expect(() => parseEvaluateRequest(request(query("interval", { levels: levels(10) })))).not.toThrow();
    expectRejected(() => parseEvaluateRequest(request(query("interval", { levels: levels(1) }))), "queries.q1.levels");
    const error = expectRejected(() => parseEvaluateRequest(request(query("interval", { levels: levels(11) }))), "queries.q1.levels");
    expect(error.issues[0]!.message).toBe("`queries.q1.levels` must have at most 10 entries");
  });
});

describe("evaluate rule 3: delta and target_cents", () => {
  it("gate risk_high_probability needs delta", () => {
    expect(() => parseEvaluateRequest(request(query("gate", { guarantee: "risk_high_probability", delta: 0.05 })))).not.toThrow();
    const error = expectRejected(() => parseEvaluateRequest(request(query("gate", { guarantee: "risk_high_probability" }))), "queries.q1.delta");
    expect(error.issues[0]!.message).toBe("`queries.q1.delta` is required when guarantee is risk_high_probability");
  });

  it("route cost_budget needs target_cents", () => {
    expect(() => parseEvaluateRequest(request(query("route", { guarantee: "cost_budget", target_cents: 5 })))).not.toThrow();
    expectRejected(() => parseEvaluateRequest(request(query("route", { guarantee: "cost_budget" }))), "queries.q1.target_cents");
  });
});

describe("evaluate rule 1: backend omitted only when every query has a cascade", () => {
  it("route and judge-with-cascade queries need no backend", () => {
    const queries = { r: query("route"), j: query("judge", { cascade }) };
    expect(() => parseEvaluateRequest({ context, queries })).not.toThrow();
  });

  it("a judge without cascade makes backend required, naming the query", () => {
    const error = expectRejected(() => parseEvaluateRequest({ context, queries: { r: query("route"), j: query("judge") } }), "backend");
    expect(error.issues[0]!.message).toBe("`backend` is required because queries.j has no cascade");
  });
});

describe("instructions are a string for claim and judge", () => {
  it.each(["claim", "judge"] as const)("%s: a string passes, an object fails", (type) => {
    expect(() => parseEvaluateRequest(request(query(type)))).not.toThrow();
    const error = expectRejected(() => parseEvaluateRequest(request(query(type, { instructions: { steps: ["a"] } }))), "queries.q1.instructions");
    expect(error.issues[0]!.message).toBe("`queries.q1.instructions` must be a string, not object");
  });

  it("other types take an object or an array", () => {
    expect(() => parseEvaluateRequest(request(query("belief", { instructions: { steps: ["a"] } })))).not.toThrow();
    expect(() => parseEvaluateRequest(request(query("set", { instructions: ["a", "b"] })))).not.toThrow();
  });
});

describe("evaluate rule 4: evidence keys per level and query type (spec 2.3)", () => {
  const nonRoute = QUERY_TYPES.filter((t) => t !== "route");
  const cases = nonRoute.flatMap((type) => ACCESS_LEVELS.map((level) => [type, level] as const));

  it.each(cases)("%s at %s: the table's keys pass, each one missing fails at its path", (type, level) => {
    const evidence = evidenceFor(type, level);
    expect(() => parseEvaluateRequest(evidenceRequest(type, level, evidence))).not.toThrow();
    for (const key of Object.keys(evidence) as (keyof Evidence)[]) {
      const without = { ...evidence };
      delete without[key];
      expectRejected(() => parseEvaluateRequest(evidenceRequest(type, level, without)), `queries.q1.evidence.${key}`);
    }
  });

  it("the table's keys per level", () => {
    expect(requiredEvidenceKeys("set", "L0")).toEqual(["samples"]);
    expect(requiredEvidenceKeys("set", "L1")).toEqual(["option_probabilities"]);
    expect(requiredEvidenceKeys("interval", "L3")).toEqual(["level_probabilities"]);
    expect(requiredEvidenceKeys("claim", "L1")).toEqual(["samples"]);
    expect(requiredEvidenceKeys("claim", "L2")).toEqual(["samples", "claim_scoring"]);
    expect(requiredEvidenceKeys("route", "L4")).toEqual([]);
  });

  it("a non-route query without evidence fails at queries.q1.evidence; a route query needs none", () => {
    expectRejected(() => parseEvaluateRequest(evidenceRequest("belief", "L1", undefined)), "queries.q1.evidence");
    expect(() => parseEvaluateRequest(evidenceRequest("route", "L1", undefined))).not.toThrow();
  });

  it.each(nonRoute)("hidden_states on a %s query: allowed at L4, refused at L3", (type) => {
    const with4 = { ...evidenceFor(type, "L4"), hidden_states: [[0.1, 0.2], [0.3, 0.4]] };
    expect(() => parseEvaluateRequest(evidenceRequest(type, "L4", with4))).not.toThrow();
    const with3 = { ...evidenceFor(type, "L3"), hidden_states: [0.1, 0.2] };
    expectRejected(() => parseEvaluateRequest(evidenceRequest(type, "L3", with3)), "queries.q1.evidence.hidden_states");
  });

  it("claim_scoring: required at L2+, refused at L0 and L1", () => {
    expect(() => parseEvaluateRequest(evidenceRequest("claim", "L2", { samples: [{ text: "x", claims: [{ text: "c", score: 0.9 }] }], claim_scoring: "client" }))).not.toThrow();
    expectRejected(() => parseEvaluateRequest(evidenceRequest("claim", "L2", { samples: ["x"] })), "queries.q1.evidence.claim_scoring");
    expectRejected(() => parseEvaluateRequest(evidenceRequest("claim", "L1", { samples: ["x"], claim_scoring: "client" })), "queries.q1.evidence.claim_scoring");
  });

  it("a key of another level is refused (samples at L1, probabilities at L0)", () => {
    expectRejected(() => parseEvaluateRequest(evidenceRequest("set", "L1", { ...evidenceFor("set", "L1"), samples: ["x"] })), "queries.q1.evidence.samples");
    expectRejected(() => parseEvaluateRequest(evidenceRequest("set", "L0", { samples: ["x"], option_probabilities: { bug: 0.5, feature: 0.5 } })), "queries.q1.evidence.option_probabilities");
  });

  it("probabilities sum to 1 within 1e-3", () => {
    const sums = (yes: number, no: number) => evidenceRequest("belief", "L1", { option_probabilities: { yes, no } });
    expect(() => parseEvaluateRequest(sums(0.6, 0.4))).not.toThrow();
    expect(() => parseEvaluateRequest(sums(0.6004, 0.4))).not.toThrow();
    const error = expectRejected(() => parseEvaluateRequest(sums(0.6, 0.5)), "queries.q1.evidence.option_probabilities");
    expect(error.issues[0]!.message).toMatch(/must sum to 1 \(within 0\.001\); it sums to 1\.10000/);
    const levels = evidenceRequest("interval", "L1", { level_probabilities: { low: 0.2, mid: 0.2, high: 0.2 } });
    expectRejected(() => parseEvaluateRequest(levels), "queries.q1.evidence.level_probabilities");
  });

  it("probabilities are keyed by the query's own options", () => {
    const error = expectRejected(
      () => parseEvaluateRequest(evidenceRequest("set", "L1", { option_probabilities: { bug: 0.5, other: 0.5 } })),
      "queries.q1.evidence.option_probabilities",
    );
    expect(error.issues[0]!.message).toMatch(/lacks "feature" and has unknown "other"/);
  });
});

describe("everything wrong is reported at once, each at its dotted path", () => {
  it("names every offending field", () => {
    const error = expectRejected(() => parseEvaluateRequest({
      backend,
      queries: {
        a: query("set", { options: { one: "x" } }),
        b: query("gate", { guarantee: "risk_high_probability" }),
        c: query("claim", { instructions: 3 }),
      },
    }), "context");
    expect(error.issues.map((i) => i.field).sort()).toEqual(["context", "queries.a.options", "queries.b.delta", "queries.c.instructions"]);
    expect(error.issues.find((i) => i.field === "context")!.message).toBe("`context` is required");
  });

  it("an unknown query type and an empty query map read as sentences", () => {
    expectRejected(() => parseEvaluateRequest(request({ type: "poll" })), "queries.q1.type");
    expectRejected(() => parseEvaluateRequest({ context, backend, queries: {} }), "queries");
    expectRejected(() => parseEvaluateRequest(null), "");
  });
});
