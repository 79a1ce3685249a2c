// The other resources of the evaluation spec: one accepted and one rejected body each.
import { describe, expect, it } from "vitest";
import {
  alertSchema, auditResultSchema, backendListSchema, evaluateResponseSchema, fieldIssues, labellingJobSchema,
  monitorSchema, parseCreateProfileRequest, parseExamplesRequest, parseOrThrow, profileSchema, errorText,
} from "../../src/api/index.js";
import { alertBody, auditBody, evaluateBody, jobBody, monitorBody, profileBody } from "../client/fixtures.js";
import { expectRejected } from "./sentences.js";

describe("resources", () => {
  it.each([
    ["profile", profileSchema, profileBody, { ...profileBody, status: "ready" }, "status"],
    ["audit", auditResultSchema, auditBody, { ...auditBody, ci: [0.1] }, "ci"],
    ["monitor", monitorSchema, monitorBody, { ...monitorBody, id: undefined }, "id"],
    ["alert", alertSchema, alertBody, { ...alertBody, e_value: "big" }, "e_value"],
    ["labelling job", labellingJobSchema, jobBody, { ...jobBody, status: 3 }, "status"],
    ["backends list", backendListSchema, { backends: [{ name: "b", provider: "vllm", access_level: null }] }, { backends: [{ name: "b", provider: "vllm", access_level: "L9" }] }, "backends.0.access_level"],
    ["evaluate response", evaluateResponseSchema, evaluateBody, { ...evaluateBody, answers: { q1: { type: "gate", decision: "maybe", guarantee: {} } } }, "answers.q1.decision"],
  ] as const)("%s", (_name, schema, good, bad, field) => {
    expect(schema.safeParse(good).success).toBe(true);
    expectRejected(() => parseOrThrow(schema, bad, "body"), field);
  });

  it("create profile: defaults, method normalised, prefixed hash", () => {
    const p = parseCreateProfileRequest({ name: "p1", backend: { provider: "vllm", model: "m" }, alpha: 0.1, method: "aps" });
    expect(p).toMatchObject({ method: "APS", strict_fingerprint: false });
    expectRejected(() => parseCreateProfileRequest({ name: "p1", backend: { provider: "vllm" }, alpha: 0.1, prompt_template_hash: "abc" }), "prompt_template_hash");
    expectRejected(() => parseCreateProfileRequest({ name: "../x", backend: { provider: "vllm" }, alpha: 0.1 }), "name");
    expectRejected(() => parseCreateProfileRequest({ name: "p1", backend: { provider: "vllm" }, alpha: 1.5 }), "alpha");
  });

  it("example records: context and label required", () => {
    expect(parseExamplesRequest({ examples: [{ context: "c", label: "bug", group: "en", metadata: { evidence: {} } }] }).examples).toHaveLength(1);
    expectRejected(() => parseExamplesRequest({ examples: [{ context: "c" }] }), "examples.0.label");
  });

  it("error bodies: text from message, detail or error", () => {
    expect(errorText({ message: "m", detail: "d", error: "e" })).toBe("m");
    expect(errorText({ detail: "d", error: "e" })).toBe("d");
    expect(errorText({ error: "e" })).toBe("e");
    expect(fieldIssues(profileSchema.safeParse({}).error!).length).toBeGreaterThan(3);
  });
});
