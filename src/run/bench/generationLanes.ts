// The free-form tasks of a suite: every model × task generated, graded and scored once through the run's own path
// (generationDriver's prepare step, the evidence cache keyed as `calibkit run --task` keys it), so that every scorer
// and every α reads the same answers, and a second bench makes no model call. One progress line per model.
import type { ModelAdapter } from "../../adapters/index.js";
import { loadDataset, type Dataset } from "../../datasets/index.js";
import { scorersAt } from "../../evidence/index.js";
import type { BenchEvidence, BenchFailure } from "../../report/index.js";
import { scorerByName, type Scorer } from "../../uncertainty/index.js";
import { resolveCalibrationOptions } from "../calibrationOptions.js";
import type { RowCache } from "../queryTypes/cachedCalls.js";
import { generationDriver, onRequest } from "../queryTypes/generation.js";
import type { ScoredGrade } from "../queryTypes/scorerMetrics.js";
import { modelLabel, openLaneModel, ownFailure, type LanesOptions } from "./modelLanes.js";
import { SuiteError, type Suite, type SuiteTask } from "./suite.js";

export interface LoadedGenerationTask {
  task: SuiteTask & { generation: NonNullable<SuiteTask["generation"]> };
  dataset: Dataset;
  items: Dataset["items"][number][];
}

/** One model × free-form task: each item's grade and scores, in the task's item order. */
export interface GenerationEvidence {
  model: string;
  task: LoadedGenerationTask;
  items: ScoredGrade[];
  /** The task's grader(s), as `task: metric`. */
  grader: string;
  /** The listed scorers this model's level allows, in the suite's order. */
  scorers: Scorer[];
  /** Listed scorers the model's level does not allow, each with the reason. */
  skipped: { scorer: string; reason: string }[];
  stats: BenchEvidence;
}

export async function loadGenerationTask(suite: Suite, task: SuiteTask): Promise<LoadedGenerationTask> {
  const dataset = await loadDataset(task.dataset);
  const at = `tasks.${task.name}.dataset`;
  if (dataset.kind !== "generation") throw new SuiteError(suite.file, at, `${task.dataset} holds ${dataset.kind} items, not free-form (generation) items`);
  const items = task.limit !== undefined ? dataset.items.slice(0, task.limit) : [...dataset.items];
  if (items.length < 4) throw new SuiteError(suite.file, at, `${items.length} item(s): a repeat needs at least 2 to calibrate and 2 to test`);
  return { task: task as LoadedGenerationTask["task"], dataset, items };
}

export async function runGenerationLanes(suite: Suite, tasks: LoadedGenerationTask[], options: LanesOptions): Promise<{ cells: GenerationEvidence[]; failures: BenchFailure[] }> {
  const cells: GenerationEvidence[] = [];
  const failures: BenchFailure[] = [];
  if (tasks.length === 0) return { cells, failures };
  // One model after another: generation keeps a local model's cores busy, and a server's own batching does the rest.
  for (const model of suite.models) await runModel(suite, model, tasks, options, cells, failures);
  return { cells, failures };
}

async function runModel(suite: Suite, model: string, tasks: LoadedGenerationTask[], options: LanesOptions, cells: GenerationEvidence[], failures: BenchFailure[]): Promise<void> {
  const label = modelLabel(model);
  const seconds = () => (performance.now() - options.started) / 1000;
  const bar = options.reporter.step(`evidence ${label}`, tasks.reduce((a, t) => a + t.items.length, 0));
  let adapter: ModelAdapter | undefined;
  try {
    const counted = await openLaneModel(suite, model, tasks, options, failures);
    if (counted === undefined) return;
    adapter = counted.adapter;
    const level = adapter.accessLevel === "L4" ? "L3" : adapter.accessLevel;
    for (const t of tasks) {
      const g = t.task.generation;
      const listed = g.scorers.map((n) => scorerByName(n)!);
      const allowed = listed.filter((s) => scorersAt(adapter!.accessLevel, [s]).length > 0);
      const skipped = listed.filter((s) => !allowed.includes(s)).map((s) => ({ scorer: s.name, reason: `reads ${s.statistics.join(", ")} (level ${s.level}); ${label} exposes ${adapter!.accessLevel}` }));
      if (allowed.length === 0) {
        failures.push({ model, task: t.task.name, error: `none of the scorers ${g.scorers.join(", ")} can be computed at ${label}'s level ${adapter.accessLevel}` });
        bar.increment(t.items.length);
        continue;
      }
      // The scorer the driver is built on: one computed only on request if listed, else the first; the rows are the
      // ones `calibkit run --task` with that scorer reads and writes.
      const chosen = allowed.find(onRequest) ?? allowed[0]!;
      const started = seconds();
      const calls0 = counted.calls();
      const run = resolveCalibrationOptions({ model, dataset: t.task.dataset, generation: { ...g.options, scorer: chosen.name, scorers: allowed.map((s) => s.name) }, queryType: g.queryType, seed: suite.seed, cache: null });
      const driver = generationDriver(g.queryType, run, run.generation!, t.dataset);
      const rows: RowCache = { cache: options.cache, model, hits: 0, computed: 0, redone: 0 };
      try {
        await driver.prepare(t.items, {
          adapter, accessLevel: level, stages: [], alpha: suite.alphas[0]!, guarantee: undefined, target: undefined, delta: undefined, rows, progress: (n) => bar.increment(n),
        });
      } catch (err) {
        if (!ownFailure(err)) throw err;
        const failed = `${label} failed on task ${t.task.name} (the items done are kept in the evidence cache): ${err.message}`;
        options.reporter.log(`evidence ${failed}`);
        failures.push({ model, task: t.task.name, error: failed });
        continue;
      }
      const scored = driver.scored();
      const items = t.items.map((i) => scored.get((i as { id: string }).id)!);
      const graders = [...new Set(items.map((d) => d.line.grader))];
      const finished = seconds();
      const took = finished - started;
      cells.push({
        model, task: t, items: items.map((d) => ({ scores: d.scores, correct: d.correct })), grader: `${t.task.generation.options.task}: ${graders.join(", ")}`,
        scorers: allowed, skipped,
        stats: {
          model, task: t.task.name, items: t.items.length, hits: rows.hits, computed: rows.computed, redone: rows.redone, modelCalls: counted.calls() - calls0,
          seconds: took, itemsPerSecond: t.items.length / took, tokensPerSecond: null, accessLevel: level, started, finished,
        },
      });
      options.reporter.log(`evidence ${label} ${t.task.name}: ${t.items.length} items (${rows.hits} cached, ${rows.computed} computed) from +${started.toFixed(2)} s to +${finished.toFixed(2)} s`);
      for (const s of skipped) options.reporter.log(`evidence ${label} ${t.task.name}: no ${s.scorer}: it ${s.reason}`);
    }
  } finally {
    bar.stop();
    await adapter?.dispose();
  }
}
