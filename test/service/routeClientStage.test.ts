// A route cascade whose first stage is the caller's own model (`client_evidence`, docs/api.md): its output and
// confidence come in the query's `evidence.stage_outputs`, the service never calls it and prices it at 0, the
// examples give its verdicts and confidences, escalations go to `calibkit serve-model` (stories260K), and the
// client's cross-check recomputes every answer. Bad uses are 422s naming the field.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EvaluateRequest, ExampleRecord, RouteAnswer } from "../../src/api/index.js";
import { CrossChecker, EvaluationClient } from "../../src/client/index.js";
import { lcg, REPO, spawnCalibkit, startServer, type Spawned } from "./helpers.js";

const MODEL = join(process.env.CALIBKIT_MODELS_DIR ?? join(REPO, "../shared/models"), "stories260K.gguf");
let model: Spawned;
let server: Spawned & { data: string };
let client: EvaluationClient;
const rand = lcg(11);
const OWN = { provider: "client_evidence", name: "my-model", access_level: "L3" } as const;
const cascade = [{ backend: OWN }, { backend: { provider: "vllm", name: "large" } }];
let records: ExampleRecord[];

beforeAll(async () => {
  model = await spawnCalibkit(["serve-model", "--model", MODEL, "--threads", "1"], 60_000);
  server = await startServer({ config: { backends: [{ name: "large", provider: "vllm", base_url: model.url, cost_cents_per_call: 2, cost_cents_per_1k_tokens: 0, max_tokens: 4 }] } });
  client = new EvaluationClient({ baseUrl: `${server.url}/api/v1`, retry: false });
  await client.createProfile({ name: "own", backend: OWN, alpha: 0.2, strict_fingerprint: false });
  // The own model is right with probability equal to its confidence; the large stage is always right.
  records = Array.from({ length: 300 }, (_, i) => {
    const c = rand();
    return { context: `Once upon a time ${i}`, label: { stages: { "my-model": rand() < c ? "correct" : "incorrect", large: "correct" } }, metadata: { evidence: { stage_confidence: { "my-model": c, large: 0.9 } } } };
  });
  await client.addExamples("own", records);
}, 90_000);
afterAll(async () => {
  await server?.stop();
  await model?.stop();
});

const post = (body: unknown) => fetch(`${server.url}/api/v1/evaluate`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("route with the caller's own model as its first stage", () => {
  it("serves the own output when its confidence clears the threshold, escalates otherwise, and agrees with the cross-check", async () => {
    const checker = new CrossChecker(await client.getProfile("own"), records, { stageCosts: { large: 2 } });
    const served: string[] = [];
    for (const confidence of [0.99, 0.95, 0.9, 0.5, 0.2, 0.05]) {
      const request = {
        context: "Once upon a time, there was a frog",
        queries: { r: { type: "route", calibration_profile: "own", guarantee: "accuracy", alpha: 0.2, cascade, evidence: { stage_outputs: { "my-model": { output: " frog", confidence } } } } },
      } as unknown as EvaluateRequest;
      const res = await client.evaluate(request);
      const a = res.answers.r as RouteAnswer;
      expect(a.guarantee).toMatchObject({ kind: "accuracy", holds: true, alpha: 0.2, n: 300 });
      expect(a.stages![0]).toEqual({ stage: "my-model", confidence });
      if (a.served_by === "my-model") {
        expect(a).toMatchObject({ output: " frog", escalated: false, cost_cents: 0 });
        expect(res.usage!.backend_calls).toBe(0);
      } else {
        // The own model is never called: the call is the large stage's.
        expect(a).toMatchObject({ served_by: "large", escalated: true, cost_cents: 2 });
        expect(a.stages!.map((x) => x.stage)).toEqual(["my-model", "large"]);
        expect(res.usage!.backend_calls).toBeGreaterThan(0);
      }
      served.push(a.served_by as string);
      expect(checker.check(request, res, `c${confidence}`)).toEqual([]);
    }
    // A threshold between: the sure answers are the own model's, the unsure ones go on.
    expect(served[0]).toBe("my-model");
    expect(served.at(-1)).toBe("large");
    expect(checker.report.unchecked).toEqual({});
    expect(checker.report.answers).toBe(6);
  });

  it("refuses a client stage without its output, an output for no stage, other evidence keys, and a client judge stage, naming the field", async () => {
    const route = (extra: Record<string, unknown>) => ({ context: "x", queries: { r: { type: "route", calibration_profile: "own", guarantee: "accuracy", cascade, ...extra } } });
    const cases: [unknown, string][] = [
      [route({}), "queries.r.evidence.stage_outputs.my-model"],
      [route({ evidence: { stage_outputs: { "my-model": { output: "a", confidence: 0.5 }, other: { output: "b", confidence: 0.5 } } } }), "queries.r.evidence.stage_outputs.other"],
      [route({ evidence: { stage_outputs: { "my-model": { output: "a", confidence: 1.5 } } } }), "queries.r.evidence.stage_outputs.my-model.confidence"],
      [route({ evidence: { stage_outputs: { "my-model": { output: "a", confidence: 0.5 } }, option_probabilities: { a: 1 } } }), "queries.r.evidence.option_probabilities"],
      [{ context: { candidates: { a: "x", b: "y" } }, queries: { j: { type: "judge", instructions: "Which?", calibration_profile: "own", cascade: [{ backend: OWN }] } } }, "queries.j.cascade.0.backend"],
    ];
    for (const [body, field] of cases) {
      const res = await post(body);
      const text = await res.text();
      expect(res.status, text).toBe(422);
      expect((JSON.parse(text) as { field: string }).field, text).toBe(field);
    }
  });
});
