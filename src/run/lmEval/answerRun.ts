// A generate_until task of an lm-eval samples file, run as a gate query unless --query-type belief asks for a
// calibrated probability that the answer is right (docs/run.md, "From lm-eval"): each document's filtered
// answer graded by the file's own metric, the confidence the agreement of its repeats.
import { basename } from "node:path";
import { createHash } from "node:crypto";
import type { PassFailItem, YesNoItem } from "../../datasets/index.js";
import type { QueryRunSummary } from "../../report/index.js";
import type { ResolvedCalibrationOptions } from "../calibrationOptions.js";
import { RunInputError, RunOptionError } from "../errors.js";
import { checkGuarantee } from "../queryTypeOptions.js";
import type { Reporter } from "../events.js";
import { LM_EVAL_ANSWER_TYPES, lmEvalAnswerItems, type LmEvalAnswerType } from "./generations.js";
import type { LmEvalRun } from "./samplesFile.js";

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** Why a query type does not fit a file of generated answers graded whole (the file has no options, levels, claims or stages). */
const MISFIT: Record<string, string> = {
  set: "it has no options to choose between", interval: "it has no ordered levels", claim: "its metric grades whole answers, not each claim",
  judge: "it has one answer per document, not candidates to compare", route: "it holds one model's answers and no cascade stages to escalate to",
};

/** The query type a generate_until file runs as: gate unless told otherwise, belief when asked. */
export function lmEvalAnswerType(file: string, queryType: string | undefined): LmEvalAnswerType {
  const type = queryType ?? "gate";
  if (type in LM_EVAL_ANSWER_TYPES) return type as LmEvalAnswerType;
  throw new RunInputError(file, `holds a generate_until task: --query-type ${type} does not fit it (${MISFIT[type] ?? "unknown type"}); it runs as gate (the default) or belief`);
}

export async function answersFromLmEval(o: ResolvedCalibrationOptions, run: LmEvalRun, reporter: Reporter): Promise<QueryRunSummary> {
  const type = lmEvalAnswerType(run.file, o.queryType);
  checkGuarantee(type, o.guarantee, o.target, (option, problem) => {
    throw new RunOptionError(option, problem);
  }, o.batchSize);
  const guarantee = o.guarantee ?? "risk";
  const [right, wrong] = LM_EVAL_ANSWER_TYPES[type];
  const answers = lmEvalAnswerItems(run, type, { guarantee, target: o.target ?? o.alpha, delta: o.delta });
  const r = run.results;
  const modelName = r?.modelName ?? "unknown model (no results file beside the samples)";
  const fingerprint = `sha256:${sha256(JSON.stringify({ model: r?.model ?? null, model_args: r?.modelArgs ?? null }))}`;
  const backend = `lm-eval:${r?.model ?? "unknown"}`;
  // The typed pipeline splits the prepared items; the dataset object only names the kind in the summary.
  const dataset = type === "gate" ? { kind: "pass_fail" as const, source: run.file, items: [] as PassFailItem[] } : { kind: "yes_no" as const, source: run.file, items: [] as YesNoItem[] };
  const { runTypedPipeline } = await import("../queryTypes/pipeline.js");
  return runTypedPipeline(o, type, dataset, reporter, {
    prepared: answers.prepared, backendName: `${backend}:${modelName}`, accessLevel: "L0",
    model: { path: modelName, backend, accessLevel: "L0", fingerprint },
    describe: [
      `evidence: ${basename(run.file)} (lm-eval task ${run.task}, generate_until, filter ${answers.filter}), no model loaded`,
      `model: ${modelName}${r ? ` (${r.model}, ${r.modelArgs || "no model_args"}; from ${basename(r.file)})` : ""}`,
      `${type}: answers graded by the file's ${answers.metric} (${right} when ≥ 0.5); confidence = share of the ${answers.repeats} response(s) per document that contain the answer${answers.repeats < 2 ? " — one response per document: every item gets the same confidence" : ""}`,
    ],
    source: { lmEvalSamples: run.file, lmEvalResults: r?.file ?? null, task: run.task, model: modelName, modelArgs: r?.modelArgs ?? null, taskHash: run.taskHash },
    logFields: (p) => {
      const x = answers.log.get(p.id)!;
      return { prompt: x.prompt, option_probabilities: { [right]: x.agree, [wrong]: 1 - x.agree }, model_answer: x.answer, grade: x.grade, [answers.metric]: x.grade, responses: x.responses };
    },
  });
}
