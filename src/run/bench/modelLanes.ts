// The evidence of every model × task, the models side by side: each server (an OpenAI-compatible URL) runs in
// a lane of its own with its bound on requests in flight, the local models in one lane one after another
// (they share this machine's cores and memory). A model that fails fails its own cells with the reason; the
// other lanes go on, and every row committed before the failure stays in the evidence cache for the rerun.
import { basename } from "node:path";
import { countingAdapter, openAdapter, type ModelAdapter } from "../../adapters/index.js";
import { CalibkitError, type Evidence } from "../../api/index.js";
import { cachedChoiceEvidence, promptSettingsHash, resolvePromptSettings } from "../../evidence/index.js";
import type { BenchEvidence, BenchFailure } from "../../report/index.js";
import type { EvidenceCache } from "../../store/index.js";
import { promptItemOf, type ChoiceItem, type QueryType } from "../choices.js";
import { RunAbortedError } from "../errors.js";
import type { Reporter } from "../events.js";
import type { loadFewshot } from "../fewshot.js";
import { SuiteError, type Suite, type SuiteTask } from "./suite.js";

export interface LoadedTask {
  task: SuiteTask;
  type: QueryType;
  items: ChoiceItem[];
  fewshot: Awaited<ReturnType<typeof loadFewshot>>;
  /** A from_lm_eval task: its evidence (by item id) and the model named by lm-eval's results file. */
  lmEval?: { evidence: ReadonlyMap<string, Evidence>; model: string };
}

/** One model × task's evidence, in the task's item order. */
export interface CellEvidence {
  model: string;
  task: LoadedTask;
  evidence: Evidence[];
  stats: BenchEvidence;
}

export interface LanesOptions {
  cache: EvidenceCache | null;
  reporter: Reporter;
  /** performance.now() when the suite began: cells say when they ran, in seconds from it. */
  started: number;
}

const isServer = (model: string): boolean => /^https?:\/\//i.test(model);

/** How progress lines and errors name a model: a server's host and port, a local model's file name. */
export function modelLabel(model: string): string {
  return isServer(model) ? model.replace(/^https?:\/\//i, "").replace(/\/+$/, "").replace(/\/v1$/, "") : basename(model);
}

/** An error that belongs to one model (it could not load, its server failed or died), not to the suite. */
export const ownFailure = (err: unknown): err is CalibkitError => err instanceof CalibkitError && !(err instanceof RunAbortedError) && !(err instanceof SuiteError);

/**
 * A suite's model opened with its call counter (a server with its own bound on requests in flight), or undefined
 * when it cannot be opened: then each of its tasks fails with the reason, and the other models run on.
 */
export async function openLaneModel(
  suite: Suite, model: string, tasks: readonly { task: { name: string } }[], options: Pick<LanesOptions, "reporter">, failures: BenchFailure[],
): Promise<ReturnType<typeof countingAdapter> | undefined> {
  const label = modelLabel(model);
  try {
    return countingAdapter(await openAdapter(model, isServer(model) ? { server: { concurrency: suite.concurrency[model] } } : {}));
  } catch (err) {
    if (!ownFailure(err)) throw err;
    const failed = `could not open ${label}: ${err.message}`;
    options.reporter.log(`evidence ${label}: ${failed}`);
    for (const t of tasks) failures.push({ model, task: t.task.name, error: failed });
    return undefined;
  }
}

export async function runModelLanes(suite: Suite, tasks: LoadedTask[], options: LanesOptions): Promise<{ cells: CellEvidence[]; failures: BenchFailure[] }> {
  const cells: CellEvidence[] = [];
  const failures: BenchFailure[] = [];
  const lanes: string[][] = suite.models.filter(isServer).map((m) => [m]);
  const local = suite.models.filter((m) => !isServer(m));
  if (local.length > 0) lanes.push(local);
  const runLane = async (models: string[]) => {
    for (const model of models) await runModel(suite, model, tasks, options, cells, failures);
  };
  // Every lane runs to its end even when another fails; an abort of the whole suite is rethrown after.
  const settled = await Promise.allSettled(lanes.map(runLane));
  const rejected = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (rejected) throw rejected.reason;
  return { cells, failures };
}

async function runModel(suite: Suite, model: string, tasks: LoadedTask[], options: LanesOptions, cells: CellEvidence[], failures: BenchFailure[]): Promise<void> {
  const label = modelLabel(model);
  const seconds = () => (performance.now() - options.started) / 1000;
  const bar = options.reporter.step(`evidence ${label}`, tasks.reduce((a, t) => a + t.items.length, 0));
  let adapter: ModelAdapter | undefined;
  let failed: string | undefined;
  try {
    const counted = await openLaneModel(suite, model, tasks, options, failures);
    if (counted === undefined) return;
    adapter = counted.adapter;
    const level = adapter.accessLevel === "L4" ? "L3" : adapter.accessLevel;
    for (const t of tasks) {
      if (failed !== undefined) {
        failures.push({ model, task: t.task.name, error: `not run: ${failed}` });
        continue;
      }
      let done = 0;
      const started = seconds();
      try {
        const prompt = await resolvePromptSettings({ ...t.task.prompt.settings, fewshot: t.fewshot }, adapter);
        const calls0 = counted.calls();
        const built = await cachedChoiceEvidence(t.items.map((i) => promptItemOf(i, t.type)), {
          type: t.type, adapter, level, prompt, cache: options.cache, fingerprint: adapter.fingerprint, promptHash: promptSettingsHash(prompt, t.type), model,
          onBatch: (n) => {
            done += n;
            bar.increment(n);
          },
        });
        const finished = seconds();
        const tokens = built.computed > 0 ? await countTokens(adapter, t.items) : null;
        const took = finished - started;
        cells.push({
          model, task: t, evidence: built.evidence,
          stats: {
            model, task: t.task.name, items: t.items.length, hits: built.hits, computed: built.computed, redone: built.redone, modelCalls: counted.calls() - calls0,
            seconds: took, itemsPerSecond: t.items.length / took, tokensPerSecond: tokens === null ? null : tokens / took, accessLevel: level, started, finished,
          },
        });
        options.reporter.log(`evidence ${label} ${t.task.name}: ${t.items.length} items (${built.hits} cached, ${built.computed} computed) from +${started.toFixed(2)} s to +${finished.toFixed(2)} s`);
      } catch (err) {
        if (!ownFailure(err)) throw err;
        failed = `${label} failed on task ${t.task.name} after ${done} of ${t.items.length} items (those are kept in the evidence cache): ${err.message}`;
        options.reporter.log(`evidence ${failed}`);
        failures.push({ model, task: t.task.name, error: failed });
      }
    }
  } finally {
    bar.stop();
    await adapter?.dispose();
  }
}

/** Tokens of the items' text by the model's tokenizer; null when it cannot count (a server without /tokenize). */
async function countTokens(adapter: ModelAdapter, items: readonly ChoiceItem[]): Promise<number | null> {
  let tokens = 0;
  try {
    for (const i of items) tokens += await adapter.countTokens([i.context, i.question ?? "", ...i.texts].join(" "));
  } catch (err) {
    if (ownFailure(err)) return null;
    throw err;
  }
  return tokens;
}
