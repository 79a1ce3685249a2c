// The fdr gate queries of one request are one Benjamini–Hochberg batch (issue 29): 100 of them at q = 0.1 on the
// embedded service get the decisions decideBatch gives over the same calibration, not 100 batches of one; the
// client's cross-check recomputes the batch and agrees; a query at another target is a batch of its own.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guaranteeStatement, type EvaluateRequest, type ExampleRecord, type GateAnswer } from "../../src/api/index.js";
import { CrossChecker, EvaluationClient } from "../../src/client/index.js";
import { calibrateGate, decide, decideBatch, mulberry32 } from "../../src/conformal/index.js";
import { startService, type RunningService } from "../../src/service/index.js";

const BACKEND = { provider: "client_evidence", name: "local", access_level: "L1" } as const;
const rng = mulberry32(2929);
/** p(pass) that follows the label only loosely: many fails score high, as on the audit's fixture. */
const score = (pass: boolean) => Math.min(0.999, Math.max(0.001, (pass ? 0.62 : 0.45) + (rng() - 0.5) * 0.6));
const calibration = Array.from({ length: 200 }, () => {
  const pass = rng() < 0.7;
  return { pass, p: score(pass) };
});
const examples: ExampleRecord[] = calibration.map((c) => ({ context: "g", label: c.pass, metadata: { evidence: { option_probabilities: { pass: c.p, fail: 1 - c.p } } } }));
const testScores = Array.from({ length: 100 }, () => score(rng() < 0.7));

let dataDir: string;
let service: RunningService;
let client: EvaluationClient;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "calibkit-fdr-"));
  service = await startService({ dataDir, log: () => undefined });
  client = new EvaluationClient({ baseUrl: service.baseUrl, retry: false });
  await client.createProfile({ name: "fdr", backend: BACKEND, alpha: 0.1 });
  await client.addExamples("fdr", examples);
}, 60_000);
afterAll(async () => {
  await service?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const gateQuery = (p: number, target = 0.1) => ({
  type: "gate", instructions: "Approve?", calibration_profile: "fdr", guarantee: "fdr", target, evidence: { option_probabilities: { pass: p, fail: 1 - p } },
});

describe("fdr gate queries across one request", () => {
  it("100 fdr queries at q = 0.1 are one BH batch: decideBatch's approvals, and the cross-check agrees", async () => {
    const queries = Object.fromEntries(testScores.map((p, k) => [`q${k}`, gateQuery(p)]));
    const request = { context: "c", backend: BACKEND, queries } as unknown as EvaluateRequest;
    const response = await client.evaluate(request);
    const decisions = testScores.map((_, k) => (response.answers[`q${k}`] as GateAnswer).decision);
    const cal = calibrateGate({ scores: calibration.map((c) => c.p), labels: calibration.map((c) => c.pass) }, { guarantee: "fdr", target: 0.1 });
    const batch = decideBatch(cal, testScores);
    const alone = testScores.map((p) => decide(cal, p));
    expect(decisions).toEqual(batch);
    // The guarantee says what the batch controls, in the table's words (docs/guarantees.md).
    const g = (response.answers.q0 as GateAnswer).guarantee;
    expect(g.statement).toBe(guaranteeStatement("gate", "fdr", { target: 0.1 }));
    expect(g.sense).toBe("in_expectation");
    // The batch decides differently from 100 batches of one (what the service did before), so the check has teeth.
    expect(batch.filter((d) => d === "auto_approve").length).toBeLessThan(alone.filter((d) => d === "auto_approve").length);
    const profile = await client.getProfile("fdr");
    const checker = new CrossChecker(profile, examples);
    expect(checker.check(request, response)).toEqual([]);
    expect(checker.report.answers).toBe(100);
    // A tampered decision is still caught.
    const flipped = { answers: { ...response.answers, q7: { ...response.answers.q7, decision: decisions[7] === "auto_approve" ? "escalate" : "auto_approve" } } } as unknown as typeof response;
    expect(new CrossChecker(profile, examples).check(request, flipped).map((d) => d.query)).toEqual(["q7"]);
  });

  it("queries at another target, or of another guarantee, are not in the q = 0.1 batch", async () => {
    const queries: Record<string, unknown> = Object.fromEntries(testScores.slice(0, 40).map((p, k) => [`q${k}`, gateQuery(p)]));
    queries.other = gateQuery(testScores[40]!, 0.2);
    queries.risk = { ...gateQuery(testScores[41]!), guarantee: "risk" };
    const request = { context: "c", backend: BACKEND, queries } as unknown as EvaluateRequest;
    const response = await client.evaluate(request);
    const labels = calibration.map((c) => c.pass);
    const scores = calibration.map((c) => c.p);
    const cal = calibrateGate({ scores, labels }, { guarantee: "fdr", target: 0.1 });
    expect(testScores.slice(0, 40).map((_, k) => (response.answers[`q${k}`] as GateAnswer).decision)).toEqual(decideBatch(cal, testScores.slice(0, 40)));
    expect((response.answers.other as GateAnswer).decision).toBe(decide(calibrateGate({ scores, labels }, { guarantee: "fdr", target: 0.2 }), testScores[40]!));
    expect((response.answers.risk as GateAnswer).decision).toBe(decide(calibrateGate({ scores, labels }, { guarantee: "risk", target: 0.1 }), testScores[41]!));
    expect(new CrossChecker(await client.getProfile("fdr"), examples).check(request, response)).toEqual([]);
  });

  it("a request large enough to be answered in slices still decides its fdr gates as one batch", async () => {
    // Past 64 KiB a body is validated and answered a slice of queries at a time (evaluateSlices.ts). 300 strong
    // gates followed by 300 weak ones: BH over all 600 rejects a strong one only at q·300/600, while a slice of
    // strong ones alone would approve them at q. Scores are picked so that the two differ, and the service must
    // give the whole batch's decisions.
    const cal = calibrateGate({ scores: calibration.map((c) => c.p), labels: calibration.map((c) => c.pass) }, { guarantee: "fdr", target: 0.1 });
    const grid = Array.from({ length: 999 }, (_, k) => (k + 1) / 1000);
    const weak = grid.find((w) => decideBatch(cal, [w])[0] !== "auto_approve" && w > 0.3)!;
    const strong = grid.find((p) => {
      const whole = decideBatch(cal, [...Array(300).fill(p), ...Array(300).fill(weak)]);
      return decideBatch(cal, Array(16).fill(p))[0] === "auto_approve" && whole[0] !== "auto_approve";
    });
    expect(strong).toBeDefined();
    const many = [...Array(300).fill(strong!), ...Array(300).fill(weak)] as number[];
    const queries: Record<string, unknown> = Object.fromEntries(many.map((p, k) => [`g${k}`, { ...gateQuery(p), instructions: "Approve this answer? ".repeat(8) }]));
    const request = { context: "c", backend: BACKEND, queries } as unknown as EvaluateRequest;
    expect(JSON.stringify(request).length).toBeGreaterThan(64 * 1024);
    const response = await client.evaluate(request);
    expect(many.map((_, k) => (response.answers[`g${k}`] as GateAnswer).decision)).toEqual(decideBatch(cal, many));
    expect(new CrossChecker(await client.getProfile("fdr"), examples).check(request, response)).toEqual([]);
  });
});
