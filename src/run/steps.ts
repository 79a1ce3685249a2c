// The service-facing steps after ingestion: evaluate the test split, audit, feed a monitor. Each step
// cross-checks what the service returned before the run moves on.
import type { ExampleRecord } from "../api/index.js";
import { checkAudit, checkMonitor, localMonitorPath, type CrossChecker, type EvaluationClient } from "../client/index.js";
import type { RunSummary } from "../report/index.js";
import type { BeliefPair } from "./analysis.js";
import type { StepProgress } from "./events.js";
import { evaluateRequest, queryNameOf, type RequestTarget, type Scored } from "./records.js";

export interface TestOutcome {
  sizes: number[];
  /** Per test item, in order: whether the service's answer held the gold one. */
  hits: boolean[];
  pairs: BeliefPair[];
  covered: number;
  /** Items whose most probable option (the model alone) is the gold one. */
  correct: number;
  /** The service's answer to each test item, in order. */
  answers: Record<string, unknown>[];
}

/** The names an answer keeps: a set's options, or the levels from an interval's lower to its upper end. */
function keptNames(answer: Record<string, unknown>, names: readonly string[]): string[] {
  if (Array.isArray(answer.set)) return answer.set as string[];
  const [lo, hi] = (answer.interval as [unknown, unknown]).map((l) => names.indexOf(String(l)));
  return names.slice(lo!, hi! + 1);
}

/**
 * One client_evidence request per test item, each answer cross-checked as it arrives. Size is the
 * number of options in a set, or of levels in an interval.
 */
export async function evaluateTestSplit(
  client: EvaluationClient, checker: CrossChecker, test: readonly Scored[], target: RequestTarget, bar: StepProgress,
): Promise<TestOutcome> {
  const out: TestOutcome = { sizes: [], hits: [], pairs: [], covered: 0, correct: 0, answers: [] };
  for (const x of test) {
    const request = evaluateRequest(x, target);
    const response = await client.evaluate(request);
    checker.check(request as Parameters<CrossChecker["check"]>[0], response, x.item.id);
    const answer = response.answers[queryNameOf(x.item)] as Record<string, unknown>;
    out.answers.push(answer);
    const kept = keptNames(answer, x.item.names);
    out.sizes.push(kept.length);
    out.hits.push(kept.includes(x.item.answer));
    if (kept.includes(x.item.answer)) out.covered++;
    const p = (x.evidence.option_probabilities ?? x.evidence.level_probabilities)!;
    if (x.item.names.reduce((a, b) => (p[b]! > p[a]! ? b : a)) === x.item.answer) out.correct++;
    const va = answer.venn_abers as Record<string, [number, number]> | undefined;
    for (const [option, [p0, p1]] of Object.entries(va ?? {})) out.pairs.push({ p0, p1, gold: option === x.item.answer });
    bar.increment();
  }
  return out;
}

/** The service's audit on held-out examples, recomputed locally. */
export async function auditStep(
  client: EvaluationClient, checker: CrossChecker, profile: string, examples: ExampleRecord[], alpha: number,
): Promise<RunSummary["audit"]> {
  if (examples.length === 0) {
    return { result: "skipped", realizedCoverage: NaN, ci: [0, 1], sample: 0, target: 1 - alpha, date: new Date().toISOString() };
  }
  const result = await client.audit(profile, examples);
  checkAudit(checker, examples, alpha, result);
  return { result: result.result, realizedCoverage: result.realized_coverage, ci: result.ci, sample: result.sample, target: result.target, date: result.date };
}

/**
 * A coverage monitor created now and fed the stream as one batch of new examples, which the service
 * judges against the calibration as it stood before them; the local e-process is computed the same way.
 */
export async function monitorStep(
  client: EvaluationClient, checker: CrossChecker, profile: { name: string; n: number }, stream: ExampleRecord[],
  alpha: number, falseAlarmRate: number,
): Promise<RunSummary["monitor"]> {
  const created = await client.createMonitor(profile.name, { type: "coverage", false_alarm_rate: falseAlarmRate, target: alpha, labelled_sample_rate: 1 });
  const summary: RunSummary["monitor"] = {
    id: created.id, type: created.type, target: created.target, falseAlarmRate: created.false_alarm_rate,
    status: created.status, threshold: 1 / created.false_alarm_rate, path: [], alerts: [],
  };
  if (stream.length === 0) return summary;
  const local = localMonitorPath(checker, stream, created.id, profile.n, created.target, created.false_alarm_rate);
  await client.addExamples(profile.name, stream);
  const view = (await client.listMonitors(profile.name)).monitors.find((m) => m.id === created.id) ?? created;
  checkMonitor(checker, view, local);
  const alerts = (await client.listAlerts(profile.name, created.id)).alerts;
  return {
    ...summary,
    status: view.status,
    path: local.path,
    alerts: alerts.map((a) => ({ type: a.type, severity: a.severity, n: a.n, e_value: a.e_value, message: a.message, detected_at: a.detected_at })),
  };
}
