// A generate_until task of an lm-eval samples file, run as a gate query (docs/run.md, "From lm-eval"): each
// document's filtered answer graded by the file's own metric, the confidence the agreement of its repeats.
import { basename } from "node:path";
import { createHash } from "node:crypto";
import type { PassFailItem } from "../../datasets/index.js";
import type { QueryRunSummary } from "../../report/index.js";
import type { ResolvedCalibrationOptions } from "../calibrationOptions.js";
import { RunInputError } from "../errors.js";
import type { Reporter } from "../events.js";
import { lmEvalGateItems } from "./generations.js";
import type { LmEvalRun } from "./samplesFile.js";

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

export async function gateFromLmEval(o: ResolvedCalibrationOptions, run: LmEvalRun, reporter: Reporter): Promise<QueryRunSummary> {
  if (o.queryType !== undefined && o.queryType !== "gate") throw new RunInputError(run.file, `holds a generate_until task: run as a gate query (--query-type ${o.queryType} does not fit it)`);
  const guarantee = o.guarantee ?? "risk";
  if (!["risk", "risk_high_probability", "fdr"].includes(guarantee)) throw new RunInputError(run.file, `a gate takes --guarantee risk, risk_high_probability or fdr, not ${guarantee}`);
  const gate = lmEvalGateItems(run, { guarantee, target: o.target ?? o.alpha, delta: o.delta });
  const r = run.results;
  const modelName = r?.modelName ?? "unknown model (no results file beside the samples)";
  const fingerprint = `sha256:${sha256(JSON.stringify({ model: r?.model ?? null, model_args: r?.modelArgs ?? null }))}`;
  const backend = `lm-eval:${r?.model ?? "unknown"}`;
  // The typed pipeline splits the prepared items; the dataset object only names the kind in the summary.
  const dataset = { kind: "pass_fail" as const, source: run.file, items: [] as PassFailItem[] };
  const { runTypedPipeline } = await import("../queryTypes/pipeline.js");
  return runTypedPipeline(o, "gate", dataset, reporter, {
    prepared: gate.prepared, backendName: `${backend}:${modelName}`, accessLevel: "L0",
    model: { path: modelName, backend, accessLevel: "L0", fingerprint },
    describe: [
      `evidence: ${basename(run.file)} (lm-eval task ${run.task}, generate_until, filter ${gate.filter}), no model loaded`,
      `model: ${modelName}${r ? ` (${r.model}, ${r.modelArgs || "no model_args"}; from ${basename(r.file)})` : ""}`,
      `gate: answers graded by the file's ${gate.metric} (pass when ≥ 0.5); confidence = share of the ${gate.repeats} response(s) per document that contain the answer${gate.repeats < 2 ? " — one response per document: every item gets the same confidence" : ""}`,
    ],
    source: { lmEvalSamples: run.file, lmEvalResults: r?.file ?? null, task: run.task, model: modelName, modelArgs: r?.modelArgs ?? null, taskHash: run.taskHash },
    logFields: (p) => {
      const x = gate.log.get(p.id)!;
      return { prompt: x.prompt, option_probabilities: { pass: x.agree, fail: 1 - x.agree }, model_answer: x.answer, grade: x.grade, [gate.metric]: x.grade, responses: x.responses };
    },
  });
}
