// `calibkit bench`: every model × task once through the evidence cache (the models side by side, one progress
// line each: modelLanes.ts), then every method × α × repeat on the local conformal engine; results.csv,
// summary.json and the comparative report.html (docs/bench.md).
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { loadDataset } from "../../datasets/index.js";
import { benchPageOf, type BenchEvidence, type BenchRow, type BenchSummary } from "../../report/index.js";
import { EvidenceCache } from "../../store/index.js";
import { choicesOf, METHODS_BY_TYPE } from "../choices.js";
import { loadFewshot, withoutExemplars } from "../fewshot.js";
import type { Reporter } from "../events.js";
import { calibkitVersion } from "../version.js";
import { conditionalCsv, generationCsv, resultsCsv } from "./csv.js";
import { generationRows } from "./generationCells.js";
import { loadGenerationTask, runGenerationLanes } from "./generationLanes.js";
import { benchCell } from "./metrics.js";
import { runModelLanes, type LoadedTask } from "./modelLanes.js";
import type { Suite, SuiteTask } from "./suite.js";
import { SuiteError } from "./suite.js";
import type { Evidence } from "../../api/index.js";
import { lmEvalChoiceItems, outputTypeOf } from "../lmEval/choices.js";
import { readLmEvalRun } from "../lmEval/samplesFile.js";

export interface BenchOptions {
  /** Where report.html, summary.json and results.csv go; nothing is written when undefined. */
  out: string | undefined;
  cache: string | null;
  reporter: Reporter;
}

async function loadTask(suite: Suite, task: SuiteTask): Promise<LoadedTask> {
  if (task.fromLmEval !== undefined) {
    const run = readLmEvalRun(task.fromLmEval);
    if (outputTypeOf(run) !== "multiple_choice") throw new SuiteError(suite.file, `tasks.${task.name}.from_lm_eval`, "a suite task reads a multiple-choice lm-eval task (set queries)");
    const { items: all, evidence } = lmEvalChoiceItems(run, task.prompt.settings.normalize ?? "none");
    const items = task.limit !== undefined ? all.slice(0, task.limit) : all;
    if (items.length < 4) throw new SuiteError(suite.file, `tasks.${task.name}.from_lm_eval`, `${items.length} item(s): a repeat needs at least 2 to calibrate and 2 to test`);
    return { task, type: "set", items, fewshot: [], lmEval: { evidence, model: run.results?.modelName ?? `lm-eval:${run.task}` } };
  }
  const choices = choicesOf(await loadDataset(task.dataset));
  if (task.queryType && task.queryType !== choices.type) throw new SuiteError(suite.file, `tasks.${task.name}.query_type`, `${task.dataset} holds ${choices.type} items, not ${task.queryType}`);
  const fewshot = await loadFewshot(task.prompt.fewshot, choices.type);
  const { kept } = withoutExemplars(choices.items, fewshot);
  const items = task.limit !== undefined ? kept.slice(0, task.limit) : kept;
  if (items.length < 4) throw new SuiteError(suite.file, `tasks.${task.name}.dataset`, `${items.length} item(s): a repeat needs at least 2 to calibrate and 2 to test`);
  return { task, type: choices.type, items, fewshot };
}

/** Every method × α cell of one model on one task, from the task's evidence (items in order). */
function taskCells(suite: Suite, t: LoadedTask, model: string, built: readonly Evidence[]): BenchRow[] {
  const cells: BenchRow[] = [];
  const width = t.items[0]!.names.length;
  const mixed = t.items.some((item) => item.names.length !== width);
  if (mixed && t.type !== "set") throw new SuiteError(suite.file, `tasks.${t.task.name}.dataset`, `items have ${[...new Set(t.items.map((i) => i.names.length))].join(", ")} levels: an interval task needs one list of levels`);
  const probabilities = new Float64Array(mixed ? 0 : t.items.length * width);
  const itemRows: Float64Array[] = [];
  const labels = new Int32Array(t.items.length);
  t.items.forEach((item, i) => {
    const p = (built[i]!.option_probabilities ?? built[i]!.level_probabilities)!;
    // Items of different option counts are calibrated together (or per count, by_option_count): each its own row.
    if (mixed) itemRows.push(Float64Array.from(item.names, (n) => p[n]!));
    else item.names.forEach((n, j) => (probabilities[i * width + j] = p[n]!));
    labels[i] = item.names.indexOf(item.answer);
  });
  for (const method of suite.methods.filter((m) => METHODS_BY_TYPE[t.type].includes(m))) {
    for (const alpha of suite.alphas) {
      cells.push(benchCell({
        model, task: t.task.name, type: t.type, method, alpha, probabilities, width, labels,
        names: t.items.map((i) => i.names), groups: t.items.map((i) => i.group),
        repeats: suite.repeats, seed: suite.seed, calibrationFraction: suite.calibrationFraction,
        ...(mixed ? { rows: itemRows, byOptionCount: t.task.byOptionCount } : {}),
      }));
    }
  }
  return cells;
}

export async function runBench(suite: Suite, options: BenchOptions): Promise<BenchSummary> {
  const started = performance.now();
  // Every dataset before any model: a malformed file fails at once.
  const tasks = await Promise.all(suite.tasks.filter((t) => !t.generation).map((t) => loadTask(suite, t)));
  const generationTasks = await Promise.all(suite.tasks.filter((t) => t.generation).map((t) => loadGenerationTask(suite, t)));
  for (const t of tasks) {
    const fits = suite.methods.filter((m) => METHODS_BY_TYPE[t.type].includes(m));
    if (fits.length === 0) throw new SuiteError(suite.file, "methods", `none of ${suite.methods.join(", ")} fits task ${t.task.name} (${t.type} queries take ${METHODS_BY_TYPE[t.type].join(", ")})`);
  }
  if (options.out !== undefined) await mkdir(options.out, { recursive: true });
  const cache = options.cache === null ? null : EvidenceCache.open(options.cache);
  const modelTasks = tasks.filter((t) => !t.lmEval);
  let lanes: Awaited<ReturnType<typeof runModelLanes>>;
  let free: Awaited<ReturnType<typeof runGenerationLanes>>;
  try {
    // A suite of free-form tasks only opens each model once, in its generation lane.
    lanes = modelTasks.length ? await runModelLanes(suite, modelTasks, { cache, reporter: options.reporter, started }) : { cells: [], failures: [] };
    free = await runGenerationLanes(suite, generationTasks, { cache, reporter: options.reporter, started });
  } finally {
    cache?.close();
  }
  const evidence: BenchEvidence[] = [];
  const rows: BenchRow[] = [];
  // Cells in the suite's order (model, then task), whatever order the lanes finished in.
  for (const model of suite.models) {
    for (const t of modelTasks) {
      const cell = lanes.cells.find((c) => c.model === model && c.task === t);
      if (!cell) continue;
      evidence.push(cell.stats);
      rows.push(...taskCells(suite, t, model, cell.evidence));
    }
  }
  // lm-eval tasks: the evidence is the file's, computed once by the model lm-eval ran (no model loaded here).
  for (const t of tasks) {
    if (!t.lmEval) continue;
    const t0 = performance.now();
    const built = t.items.map((i) => t.lmEval!.evidence.get(i.id)!);
    const seconds = (performance.now() - t0) / 1000;
    evidence.push({ model: t.lmEval.model, task: t.task.name, items: t.items.length, hits: 0, computed: 0, modelCalls: 0, seconds, itemsPerSecond: t.items.length / seconds, tokensPerSecond: null, accessLevel: "L2" });
    rows.push(...taskCells(suite, t, t.lmEval.model, built));
  }
  // Free-form tasks: every scorer × α from the one set of graded answers per model × task, in the suite's order.
  const generation = [];
  const skippedScorers = [];
  for (const model of suite.models) {
    for (const t of generationTasks) {
      const cell = free.cells.find((c) => c.model === model && c.task === t);
      if (!cell) continue;
      evidence.push(cell.stats);
      generation.push(...generationRows(suite, cell));
      skippedScorers.push(...cell.skipped.map((k) => ({ model, task: t.task.name, ...k })));
    }
  }
  const order = new Map(suite.tasks.map((t, i) => [t.name, i]));
  const summary: BenchSummary = {
    calibkit: await calibkitVersion(), createdAt: new Date().toISOString(), suite: suite.file, seed: suite.seed, repeats: suite.repeats,
    models: suite.models,
    tasks: [...tasks, ...generationTasks].map((t) => ({ name: t.task.name, dataset: t.task.dataset, items: t.items.length })).sort((a, b) => order.get(a.name)! - order.get(b.name)!),
    methods: suite.methods, alphas: suite.alphas, cache: options.cache, evidence, rows,
    ...(generationTasks.length ? { scorers: [...new Set(generationTasks.flatMap((t) => t.task.generation.scorers))], generation, skippedScorers } : {}),
    failures: [...lanes.failures, ...free.failures], totalSeconds: (performance.now() - started) / 1000,
  };
  if (options.out !== undefined) {
    await writeFile(join(options.out, "summary.json"), JSON.stringify(summary, null, 2) + "\n");
    await writeFile(join(options.out, "results.csv"), resultsCsv(rows, evidence));
    await writeFile(join(options.out, "conditional.csv"), conditionalCsv(rows));
    if (generationTasks.length) await writeFile(join(options.out, "generation.csv"), generationCsv(generation, evidence));
    await writeFile(join(options.out, "report.html"), benchPageOf(summary));
  }
  return summary;
}
