// Where a set or interval run's evidence comes from: the local model (through the evidence cache), or an
// lm-eval samples file (no model loaded). The pipeline reads both through this one shape.
import { basename } from "node:path";
import { createHash } from "node:crypto";
import type { AccessLevel, Evidence } from "../api/index.js";
import { countingAdapter, openAdapter } from "../adapters/index.js";
import { assemblePrompt, cachedChoiceEvidence, promptSettingsHash, resolvePromptSettings } from "../evidence/index.js";
import { EvidenceCache } from "../store/index.js";
import type { RunSummary } from "../report/index.js";
import { promptItemOf, type ChoiceItem, type QueryType } from "./choices.js";
import type { ResolvedCalibrationOptions } from "./calibrationOptions.js";
import type { loadFewshot } from "./fewshot.js";
import type { LmEvalRun } from "./lmEval/samplesFile.js";

export interface BuiltEvidence {
  evidence: Evidence[];
  hits: number;
  computed: number;
  redone: number;
}

export interface ChoiceSource {
  accessLevel: AccessLevel;
  /** The client_evidence backend name the profile and requests carry. */
  backendName: string;
  model: RunSummary["model"];
  fingerprint: string;
  promptHash: string;
  /** Lines for the log once the source is open. */
  describe: string[];
  evidence(items: readonly ChoiceItem[], onBatch: (n: number) => void): Promise<BuiltEvidence>;
  /** What the model was given for the item (items.jsonl). */
  promptOf(item: ChoiceItem): unknown;
  modelCalls(): number;
  cacheDir: string | null;
  /** Set when the evidence came from a file (report and summary name it). */
  source?: RunSummary["source"];
  dispose(): Promise<void>;
}

/** The local model through the evidence cache. */
export async function modelSource(options: ResolvedCalibrationOptions, type: QueryType, fewshot: Awaited<ReturnType<typeof loadFewshot>>, open: <T>(work: () => Promise<T>) => Promise<T>): Promise<ChoiceSource> {
  const counted = countingAdapter(await open(() => openAdapter(options.model)));
  const adapter = counted.adapter;
  const cache = options.cache === null ? null : EvidenceCache.open(options.cache);
  try {
    // Evidence ≤ L3: the cloze scores are exact log-likelihoods; no hidden states are sent.
    const accessLevel = adapter.accessLevel === "L4" ? "L3" : adapter.accessLevel;
    // The level named here is the one the summary and the report name: the level the evidence is sent at.
    const exposes = adapter.accessLevel !== accessLevel ? `; the model exposes ${adapter.accessLevel}` : "";
    const prompt = await resolvePromptSettings({ ...options.prompt.settings, fewshot }, adapter);
    const promptHash = promptSettingsHash(prompt, type);
    return {
      accessLevel, backendName: `${adapter.provider}:${adapter.model}`, fingerprint: adapter.fingerprint, promptHash,
      model: { path: options.model, backend: adapter.provider, accessLevel, fingerprint: adapter.fingerprint },
      describe: [
        `model: ${options.model} (${adapter.provider}, access level ${accessLevel}${exposes})`,
        `prompts: ${typeof prompt.format === "string" ? prompt.format : `template ${prompt.format.templateFile}`}${prompt.chat ? ", chat template" : ""}${fewshot.length ? `, ${fewshot.length}-shot` : ""}${prompt.normalize !== "none" ? `, normalize ${prompt.normalize}` : ""} (${promptHash.slice(0, 19)}…)`,
      ],
      evidence: (items, onBatch) => cachedChoiceEvidence(items.map((i) => promptItemOf(i, type)), {
        type, adapter, level: accessLevel, prompt, onBatch, cache, fingerprint: adapter.fingerprint, promptHash, model: options.model,
      }),
      promptOf: (item) => assemblePrompt(promptItemOf(item, type), prompt).prompt,
      modelCalls: () => counted.calls(),
      cacheDir: cache?.dir ?? null,
      async dispose() {
        cache?.close();
        await adapter.dispose();
      },
    };
  } catch (err) {
    cache?.close();
    await adapter.dispose();
    throw err;
  }
}

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/**
 * An lm-eval samples file's evidence: log-likelihoods lm-eval computed (access level L2, prompt scoring). The
 * fingerprint is the results file's model and model_args; the prompt hash is lm-eval's task hash (doc_hash +
 * prompt_hash + target_hash of every document) with the normalisation.
 */
export function lmEvalSource(run: LmEvalRun, evidence: ReadonlyMap<string, Evidence>, normalize: string, filter: string): ChoiceSource {
  const r = run.results;
  const modelName = r?.modelName ?? "unknown model (no results file beside the samples)";
  const fingerprint = `sha256:${sha256(JSON.stringify({ model: r?.model ?? null, model_args: r?.modelArgs ?? null }))}`;
  const promptHash = `sha256:${sha256(JSON.stringify({ v: 1, lm_eval_task_hash: run.taskHash, normalize }))}`;
  const backend = `lm-eval:${r?.model ?? "unknown"}`;
  const hashNote = r?.taskHash === undefined ? "" : r.taskHash === run.taskHash ? ", task hash matches the results file" : `, task hash ${run.taskHash.slice(0, 12)}… differs from the results file's ${r.taskHash.slice(0, 12)}…`;
  return {
    accessLevel: "L2", backendName: `${backend}:${modelName}`, fingerprint, promptHash,
    model: { path: modelName, backend, accessLevel: "L2", fingerprint },
    describe: [
      `evidence: ${basename(run.file)} (lm-eval task ${run.task}, filter ${filter}${hashNote}), no model loaded`,
      `model: ${modelName} (${r ? `${r.model}, ${r.modelArgs || "no model_args"}; from ${basename(r.file)}` : "no results file beside the samples"})`,
      `probabilities: ${normalize === "chars" ? "softmax of log-likelihood ÷ choice length in characters (acc_norm)" : "softmax of the log-likelihoods"}`,
    ],
    async evidence(items, onBatch) {
      onBatch(items.length);
      return { evidence: items.map((i) => evidence.get(i.id)!), hits: 0, computed: 0, redone: 0 };
    },
    promptOf: (item) => item.context,
    modelCalls: () => 0,
    cacheDir: null,
    source: { lmEvalSamples: run.file, lmEvalResults: r?.file ?? null, task: run.task, model: modelName, modelArgs: r?.modelArgs ?? null, taskHash: run.taskHash },
    async dispose() {},
  };
}
