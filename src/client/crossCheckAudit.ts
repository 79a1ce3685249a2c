// Cross-checks of the two results that judge coverage on labelled examples: an audit (realized coverage
// with its Clopper–Pearson interval) and a coverage monitor (the e-process over the examples added after
// it was created). Both are recomputed with the local engine and compared like answers.
import type { AuditResult, ExampleRecord } from "../api/index.js";
import { auditCoverage, createMonitor, monitorEValue, updateMonitor } from "../conformal/index.js";
import type { CrossChecker, CrossCheckDisagreement } from "./crossCheck.js";

/** The audit the local engine gives for `examples` (seeds `audit:<i>`), compared with the service's. */
export function checkAudit(checker: CrossChecker, examples: readonly ExampleRecord[], alpha: number, service: AuditResult): CrossCheckDisagreement[] {
  const covered: boolean[] = [];
  examples.forEach((e, i) => {
    const c = checker.covered(e, alpha, `audit:${i}`);
    if (c !== undefined) covered.push(c);
  });
  const local = auditCoverage(covered, alpha);
  return checker.compare("audit", service, {
    result: local.result, realized_coverage: local.realizedCoverage, ci: local.ci, sample: local.sample, target: local.target,
  });
}

export interface MonitorPath {
  /** Miscovered (true) or covered, per judged example, in order. */
  miscovered: boolean[];
  /** The e-value after each judged example. */
  path: { n: number; eValue: number }[];
  finalEValue: number;
  alarmed: boolean;
}

/**
 * The e-process of a coverage monitor `id` with miscoverage target `target` over `stream`, the examples
 * added in one batch after it was created, when the profile held `startIndex` examples (seeds
 * `monitor:<id>:<index>`), judged against the calibration as it stood before the batch.
 */
export function localMonitorPath(
  checker: CrossChecker, stream: readonly ExampleRecord[], id: string, startIndex: number, target: number, falseAlarmRate: number,
): MonitorPath {
  let state = createMonitor(target, falseAlarmRate);
  const miscovered: boolean[] = [];
  const path: { n: number; eValue: number }[] = [];
  stream.forEach((e, i) => {
    const c = checker.covered(e, target, `monitor:${id}:${startIndex + i}`);
    if (c === undefined) return;
    miscovered.push(!c);
    state = updateMonitor(state, !c);
    path.push({ n: state.t, eValue: monitorEValue(state) });
  });
  return { miscovered, path, finalEValue: monitorEValue(state), alarmed: state.alarmed };
}

/** Compares the service's monitor view (its `n` and `e_value` extensions, and status) with the local path. */
export function checkMonitor(checker: CrossChecker, service: { n?: unknown; e_value?: unknown; status?: unknown }, local: MonitorPath): CrossCheckDisagreement[] {
  const view: Record<string, unknown> = { status: local.alarmed ? "alarmed" : "active" };
  if (service.n !== undefined) view.n = local.path.length;
  if (service.e_value !== undefined) view.e_value = local.finalEValue;
  return checker.compare("monitor", service, view);
}
