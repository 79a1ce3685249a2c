// The evidence builder on the real stories260K model (loaded once): spec 2.3's table per level.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEvaluateRequest, type Evidence } from "../../src/api/index.js";
// The adapters' modules, not their index, so this file does not load the ONNX runtime.
import { AccessLevelError } from "../../src/adapters/errors.js";
import { createLlamaCppAdapter } from "../../src/adapters/llamaCppAdapter.js";
import { defaultModelsDir } from "../../src/adapters/modelsDir.js";
import type { ModelAdapter } from "../../src/adapters/types.js";
import { buildEvaluateRequest, buildExampleRecords, promptTemplateHash, TEMPLATES } from "../../src/evidence/index.js";

let adapter: ModelAdapter;
beforeAll(async () => {
  adapter = await createLlamaCppAdapter({ modelPath: join(defaultModelsDir(), "stories260K.gguf"), gpu: false });
});
afterAll(async () => {
  await adapter.dispose();
});

const context = { story: "Lily had a dog and a red ball.", candidates: { a: "Lily played.", b: "The dog ran." } };
const queries = {
  kind: { type: "set", instructions: "What did Lily have?", options: { dog: "an animal", ball: "a toy", car: "" }, calibration_profile: "s" },
  happy: { type: "belief", instructions: "Is Lily happy?", calibration_profile: "b" },
  safe: { type: "gate", instructions: "The text is safe", guarantee: "risk", target: 0.1, calibration_profile: "g" },
  age: { type: "interval", instructions: "How old is Lily?", levels: ["2", "4", "6", "8"], calibration_profile: "i" },
  better: { type: "judge", instructions: "Which is better?", calibration_profile: "j" },
  facts: { type: "claim", instructions: "Tell what happened.", calibration_profile: "c" },
  cheap: { type: "route", cascade: [{ backend: "human_queue" }], guarantee: "accuracy", calibration_profile: "r" },
};
const evidenceOf = (req: { queries: Record<string, unknown> }, name: string) => (req.queries[name] as { evidence?: Evidence }).evidence;

describe("buildEvaluateRequest", () => {
  it.each([
    ["exact", "L3"], ["hidden-state", "L4"], ["logprobs", "L1"], ["prompt-scoring", "L2"], ["sampling", "L0"],
  ] as const)("hint %s: backend %s and exactly the spec's evidence keys, valid by the schemas", async (hint, level) => {
    const req = await buildEvaluateRequest({ context, queries, adapter, accessHint: hint, samples: 3, claimSampleTokens: 24, name: "stories" });
    expect(req.backend).toEqual({ provider: "client_evidence", name: "stories", access_level: level });
    expect(parseEvaluateRequest(JSON.parse(JSON.stringify(req)))).toBeTruthy();
    const l4 = level === "L4" ? ["hidden_states"] : [];
    const probs = level === "L0" ? ["samples"] : ["option_probabilities"];
    expect(Object.keys(evidenceOf(req, "kind")!).sort()).toEqual([...probs, ...l4].sort());
    expect(Object.keys(evidenceOf(req, "age")!).sort()).toEqual([level === "L0" ? "samples" : "level_probabilities", ...l4].sort());
    const claimKeys = level === "L0" || level === "L1" ? ["samples"] : ["samples", "claim_scoring"];
    expect(Object.keys(evidenceOf(req, "facts")!).sort()).toEqual([...claimKeys, ...l4].sort());
    expect(evidenceOf(req, "cheap")).toBeUndefined();
    if (level !== "L0") {
      expect(Object.keys(evidenceOf(req, "happy")!.option_probabilities!)).toEqual(["yes", "no"]);
      expect(Object.keys(evidenceOf(req, "safe")!.option_probabilities!)).toEqual(["pass", "fail"]);
      expect(Object.keys(evidenceOf(req, "better")!.option_probabilities!)).toEqual(["a", "b"]);
      for (const name of ["kind", "happy", "safe", "better"]) {
        const sum = Object.values(evidenceOf(req, name)!.option_probabilities!).reduce((s, p) => s + p, 0);
        expect(Math.abs(sum - 1)).toBeLessThan(1e-6);
      }
    } else {
      expect(evidenceOf(req, "kind")!.samples).toHaveLength(3);
      expect(evidenceOf(req, "kind")!.option_probabilities).toBeUndefined();
    }
    if (level === "L4") expect(evidenceOf(req, "kind")!.hidden_states).toHaveLength(64);
  });

  it("claim samples at L2+ carry the model's own claim scores and claim_scoring client", async () => {
    const req = await buildEvaluateRequest({ context, queries: { facts: queries.facts }, adapter, accessHint: "exact", samples: 2, claimSampleTokens: 32 });
    const ev = evidenceOf(req, "facts")!;
    expect(ev.claim_scoring).toBe("client");
    const withClaims = ev.samples!.filter((s) => typeof s === "object" && (s.claims?.length ?? 0) > 0);
    expect(withClaims.length).toBeGreaterThan(0);
    for (const s of withClaims) for (const c of (s as { claims: { score: number }[] }).claims) expect(c.score).toBeGreaterThan(0);
  });

  it("L3 evidence is identical across two runs", async () => {
    const build = () => buildEvaluateRequest({ context, queries, adapter, accessHint: "exact", samples: 2, claimSampleTokens: 16 });
    expect(await build()).toEqual(await build());
  });

  it("a judge query without candidates and a hint above L4 fail clearly", async () => {
    await expect(buildEvaluateRequest({ context: "plain", queries: { better: queries.better }, adapter }))
      .rejects.toMatchObject({ code: "EVIDENCE_UNAVAILABLE", field: "queries.better" });
    const tinyLevel = { ...adapter, accessLevel: "L1" as const };
    await expect(buildEvaluateRequest({ context, queries: { kind: queries.kind }, adapter: tinyLevel as ModelAdapter, accessHint: "prompt-scoring" }))
      .rejects.toBeInstanceOf(AccessLevelError);
  });

  it("templates are versioned and hashed as sha256 of their text", () => {
    expect(TEMPLATES.set.id).toBe("set/v1");
    expect(promptTemplateHash("set")).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(promptTemplateHash("set")).not.toBe(promptTemplateHash("belief"));
  });
});

describe("buildExampleRecords", () => {
  it("puts each example's evidence in metadata.evidence and reports throughput", async () => {
    const dataset = ["dog", "ball", "car"].map((label, i) => ({ context: `Lily saw a ${label} on day ${i}.`, label }));
    const result = await buildExampleRecords(dataset, { adapter, query: queries.kind, progress: "none" });
    expect(result.records).toHaveLength(3);
    expect(result.accessLevel).toBe("L4");
    expect(result.examplesPerSecond).toBeGreaterThan(0);
    const ev = result.records[0]!.metadata!.evidence as Evidence;
    expect(Object.keys(ev.option_probabilities!)).toEqual(["dog", "ball", "car"]);
    expect(result.records[1]!.label).toBe("ball");
  });
});
