// `runCalibration`: one model calibrated on one dataset end to end (docs/library.md), what `calibkit run`
// does less the printing. The options are checked first, then the output folder, then the dataset, all
// before any model or engine loads; the steps are loaded on demand (inference engines, service, charts).
import { loadDataset } from "../datasets/index.js";
import type { QueryRunSummary, RunSummary } from "../report/index.js";
import { resolveCalibrationOptions, type CalibrationOptions } from "./calibrationOptions.js";
import { QueryTypeMismatchError, RunOptionError } from "./errors.js";
import { reporterOf, type RunHooks } from "./events.js";
import { checkOutDir } from "./preflight.js";
import { checkGuarantee } from "./queryTypeOptions.js";
import { DEFAULT_QUERY_TYPE } from "./queryTypes/index.js";
import type { TypedQuery } from "./queryTypes/types.js";

/** Where the run wrote its summary.json and report.html. */
export interface ReportFiles {
  summaryPath: string;
  reportPath: string;
}

/**
 * The run's summary (what summary.json holds), by the kind of query calibrated: a `choice` run (set or
 * interval queries) has the coverage, sweep, audit and monitor sections; a `typed` run (belief, gate,
 * claim, judge, route) the section of its guarantee. `files` is null when no `out` folder was given.
 */
export type CalibrationResult =
  | { kind: "choice"; queryType: "set" | "interval"; summary: RunSummary; files: ReportFiles | null }
  | { kind: "typed"; queryType: TypedQuery; summary: QueryRunSummary; files: ReportFiles | null };

export async function runCalibration(options: CalibrationOptions & RunHooks = {}): Promise<CalibrationResult> {
  const { onLog, onProgress, onTemporaryFolder, signal, ...rest } = options;
  const o = resolveCalibrationOptions(rest);
  const reporter = reporterOf({ onLog, onProgress, onTemporaryFolder, signal });
  reporter.checkpoint();
  if (o.out !== undefined) await checkOutDir(o.out);
  const write = async (summary: RunSummary | QueryRunSummary): Promise<ReportFiles | null> =>
    o.out === undefined ? null : (await import("../report/index.js")).writeReport(o.out, summary);
  if (o.fromLmEval !== undefined) {
    const { runFromLmEval } = await import("./lmEval/run.js");
    const run = await runFromLmEval(o, reporter);
    return { ...run, files: await write(run.summary) } as CalibrationResult;
  }
  // The dataset first: a malformed row is reported before any model or engine is loaded.
  const dataset = await loadDataset(o.dataset, o.datasetOptions);
  if (o.generation && dataset.kind !== "generation") {
    throw new RunOptionError("task", `reads free-form items (a question and reference answers); ${o.dataset} holds ${dataset.kind} items`);
  }
  const type = o.queryType ?? DEFAULT_QUERY_TYPE[dataset.kind];
  checkGuarantee(type, o.guarantee, o.target, (option, problem) => {
    throw new RunOptionError(option, problem);
  }, o.batchSize);
  if (type !== "set" && type !== "interval") {
    const { runTypedPipeline } = await import("./queryTypes/pipeline.js");
    const summary = await runTypedPipeline(o, type, dataset, reporter);
    return { kind: "typed", queryType: type, summary, files: await write(summary) };
  }
  if (type !== DEFAULT_QUERY_TYPE[dataset.kind]) {
    throw new QueryTypeMismatchError(`--query-type ${type} needs ${type === "set" ? "multiple-choice" : "ordinal"} items; ${o.dataset} holds ${dataset.kind} items`);
  }
  const { runChoicePipeline } = await import("./pipeline.js");
  const summary = await runChoicePipeline(o, dataset, reporter);
  return { kind: "choice", queryType: type, summary, files: await write(summary) };
}
