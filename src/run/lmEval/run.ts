// `calibkit run --from-lm-eval samples_<task>_<date>.jsonl`: lm-eval's per-document outputs calibrated,
// evaluated, audited, monitored and cross-checked with no model loaded (docs/run.md, "From lm-eval").
import type { MultipleChoiceDataset } from "../../datasets/index.js";
import type { QueryRunSummary, RunSummary } from "../../report/index.js";
import { answersFromLmEval, lmEvalAnswerType } from "./answerRun.js";
import type { ResolvedCalibrationOptions } from "../calibrationOptions.js";
import { lmEvalSource } from "../choiceSource.js";
import { RunInputError } from "../errors.js";
import type { Reporter } from "../events.js";
import { lmEvalChoiceItems, outputTypeOf } from "./choices.js";
import { readLmEvalRun } from "./samplesFile.js";

export async function runFromLmEval(o: ResolvedCalibrationOptions, reporter: Reporter): Promise<
  { kind: "choice"; queryType: "set"; summary: RunSummary } | { kind: "typed"; queryType: "gate" | "belief"; summary: QueryRunSummary }
> {
  const file = o.fromLmEval!;
  const run = readLmEvalRun(file, o.lmEvalResults);
  const output = outputTypeOf(run);
  if (output === "generate_until") return { kind: "typed", queryType: lmEvalAnswerType(file, o.queryType), summary: await answersFromLmEval(o, run, reporter) };
  if (o.queryType !== undefined && o.queryType !== "set") throw new RunInputError(file, `holds a multiple-choice task: --query-type ${o.queryType} does not fit it (set queries)`);
  const normalize = o.prompt.settings.normalize ?? "none";
  const { items, evidence, filter } = lmEvalChoiceItems(run, normalize);
  const dataset: MultipleChoiceDataset = {
    kind: "multiple_choice", source: file,
    items: items.map((i) => ({ id: i.id, context: i.context, options: Object.fromEntries(i.names.map((n, j) => [n, i.texts[j]!])), answer: i.answer })),
  };
  const { runChoicePipeline } = await import("../pipeline.js");
  const summary = await runChoicePipeline(o, dataset, reporter, { source: lmEvalSource(run, evidence, normalize, filter) });
  return { kind: "choice", queryType: "set", summary };
}
