// The cross-check against the real embedded service on loopback, with synthetic client evidence: every
// answer, the audit and the monitor agree with the local engine, and a tampered answer is caught by
// query and field.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EvaluateRequest, ExampleRecord } from "../../src/api/index.js";
import { checkAudit, checkMonitor, CrossChecker, EvaluationClient, localMonitorPath } from "../../src/client/index.js";
import { mulberry32 } from "../../src/conformal/index.js";
import { startService, type RunningService } from "../../src/service/index.js";

const NAMES = ["A", "B", "C", "D"];
const rng = mulberry32(2024);

function draw(): { p: Record<string, number>; label: string } {
  const raw = NAMES.map(() => rng() ** 2);
  const total = raw.reduce((a, b) => a + b, 0);
  const p = Object.fromEntries(NAMES.map((n, i) => [n, raw[i]! / total]));
  // A label that follows p only half the time: sets need more than one option.
  const label = rng() < 0.5 ? NAMES.reduce((a, b) => (p[b]! > p[a]! ? b : a)) : NAMES[Math.floor(rng() * 4)]!;
  return { p, label };
}
const example = (): ExampleRecord => {
  const { p, label } = draw();
  return { context: "c", label, metadata: { evidence: { option_probabilities: p } } };
};
const request = (profile: string, method?: string): EvaluateRequest => ({
  context: "c",
  backend: { provider: "client_evidence", name: "test", access_level: "L1" },
  queries: { q: { type: "set", instructions: "pick", options: { A: "a", B: "b", C: "c", D: "d" }, calibration_profile: profile, evidence: { option_probabilities: draw().p }, ...(method ? { method } : {}) } },
}) as EvaluateRequest;

describe("cross-check against the embedded service", () => {
  let service: RunningService;
  let dataDir: string;
  let client: EvaluationClient;
  const calibration = Array.from({ length: 300 }, example);

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "calibkit-xcheck-"));
    service = await startService({ dataDir, log: () => undefined });
    client = new EvaluationClient({ baseUrl: service.baseUrl });
    for (const method of ["LAC", "APS"]) {
      await client.createProfile({ name: `p-${method}`, backend: { provider: "client_evidence", name: "test", access_level: "L1" }, method, alpha: 0.1 });
      await client.addExamples(`p-${method}`, calibration.slice(0, 150));
      await client.addExamples(`p-${method}`, calibration.slice(150));
    }
  });
  afterAll(async () => {
    await service?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it.each(["LAC", "APS"])("recomputes every %s answer field for field, with a query's own α and method", async (method) => {
    const profile = await client.getProfile(`p-${method}`);
    const checker = new CrossChecker(profile, calibration);
    for (let i = 0; i < 40; i++) {
      const req = request(profile.name, i % 5 === 0 ? "RAPS" : undefined);
      if (i % 7 === 0) (req.queries.q as { alpha?: number }).alpha = 0.2;
      checker.check(req, await client.evaluate(req), `item${i}`);
    }
    expect(checker.report.disagreements).toEqual([]);
    expect(checker.report.answers).toBe(40);
    expect(checker.report.fields).toBeGreaterThan(40 * 15);
  });

  it("reports a tampered answer by query and field", async () => {
    const profile = await client.getProfile("p-LAC");
    const checker = new CrossChecker(profile, calibration);
    const req = request(profile.name);
    const res = await client.evaluate(req);
    const answer = res.answers.q as { probabilities: Record<string, number>; venn_abers: Record<string, [number, number]>; set: string[] };
    answer.probabilities.B = answer.probabilities.B! + 1e-6;
    answer.venn_abers.C = [answer.venn_abers.C![0], answer.venn_abers.C![1] + 1e-10]; // within tolerance
    answer.set = answer.set.length === 4 ? ["A"] : NAMES;
    const found = checker.check(req, res, "item7");
    expect(found.map((d) => `${d.query} ${d.field}`).sort()).toEqual(["item7/q probabilities.B", "item7/q set"].sort());
  });

  it("recomputes the audit and the monitor's e-process", async () => {
    const profile = await client.getProfile("p-LAC");
    const checker = new CrossChecker(profile, calibration);
    const held = Array.from({ length: 120 }, example);
    const audit = await client.audit(profile.name, held);
    expect(checkAudit(checker, held, 0.1, audit)).toEqual([]);
    const monitor = await client.createMonitor(profile.name, { type: "coverage", false_alarm_rate: 0.05, target: 0.1 });
    const stream = Array.from({ length: 80 }, example);
    const local = localMonitorPath(checker, stream, monitor.id, profile.n, monitor.target, monitor.false_alarm_rate);
    await client.addExamples(profile.name, stream);
    const view = (await client.listMonitors(profile.name)).monitors.find((m) => m.id === monitor.id)!;
    expect(checkMonitor(checker, view, local)).toEqual([]);
    expect(local.path).toHaveLength(80);
    expect(checker.report.disagreements).toEqual([]);
  });
});

describe("cross-check of interval answers against the embedded service", () => {
  const LEVELS = ["tiny", "small", "medium", "big", "huge"];
  const levelExample = (): ExampleRecord => {
    const raw = LEVELS.map(() => rng());
    const total = raw.reduce((a, b) => a + b, 0);
    const p = Object.fromEntries(LEVELS.map((l, i) => [l, raw[i]! / total]));
    const centre = LEVELS.reduce((a, b) => (p[b]! > p[a]! ? b : a));
    const y = Math.min(4, Math.max(0, LEVELS.indexOf(centre) + Math.floor(rng() * 3) - 1));
    return { context: "c", label: LEVELS[y]!, metadata: { evidence: { level_probabilities: p } } };
  };
  let service: RunningService;
  let dataDir: string;
  let client: EvaluationClient;
  const calibration = Array.from({ length: 200 }, levelExample);

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "calibkit-xcheck-int-"));
    service = await startService({ dataDir, log: () => undefined });
    client = new EvaluationClient({ baseUrl: service.baseUrl });
    for (const method of ["ordinal-aps", "CQR"]) {
      await client.createProfile({ name: `i-${method}`, backend: { provider: "client_evidence", name: "test", access_level: "L1" }, method, alpha: 0.1 });
      await client.addExamples(`i-${method}`, calibration);
    }
  });
  afterAll(async () => {
    await service?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it.each(["ordinal-aps", "CQR"])("recomputes every %s interval answer and the audit", async (method) => {
    const profile = await client.getProfile(`i-${method}`);
    const checker = new CrossChecker(profile, calibration);
    for (let i = 0; i < 30; i++) {
      const evidence = levelExample().metadata!.evidence as { level_probabilities: Record<string, number> };
      const req = {
        context: "c",
        backend: { provider: "client_evidence", name: "test", access_level: "L1" },
        queries: { q: { type: "interval", instructions: "size", levels: LEVELS, calibration_profile: profile.name, evidence, ...(i % 4 === 0 ? { alpha: 0.2 } : {}) } },
      } as EvaluateRequest;
      checker.check(req, await client.evaluate(req), `item${i}`);
    }
    const held = Array.from({ length: 60 }, levelExample);
    checkAudit(checker, held, 0.1, await client.audit(profile.name, held));
    expect(checker.report.disagreements).toEqual([]);
    expect(checker.report.answers).toBe(31);
    expect(checker.report.unchecked).toEqual({});
  });
});
