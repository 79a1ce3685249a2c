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
import { conditionalCsv, resultsCsv } from "./csv.js";
import { benchCell } from "./metrics.js";
import { runModelLanes, type LoadedTask } from "./modelLanes.js";
import type { Suite, SuiteTask } from "./suite.js";
import { SuiteError } from "./suite.js";

export interface BenchOptions {
  /** Where report.html, summary.json and results.csv go; nothing is written when undefined. */
  out: string | undefined;
  cache: string | null;
  reporter: Reporter;
}

async function loadTask(suite: Suite, task: SuiteTask): Promise<LoadedTask> {
  const choices = choicesOf(await loadDataset(task.dataset));
  if (task.queryType && task.queryType !== choices.type) throw new SuiteError(suite.file, `tasks.${task.name}.query_type`, `${task.dataset} holds ${choices.type} items, not ${task.queryType}`);
  const fewshot = await loadFewshot(task.prompt.fewshot, choices.type);
  const { kept } = withoutExemplars(choices.items, fewshot);
  const items = task.limit !== undefined ? kept.slice(0, task.limit) : kept;
  if (items.length < 4) throw new SuiteError(suite.file, `tasks.${task.name}.dataset`, `${items.length} item(s): a repeat needs at least 2 to calibrate and 2 to test`);
  return { task, type: choices.type, items, fewshot };
}

export async function runBench(suite: Suite, options: BenchOptions): Promise<BenchSummary> {
  const started = performance.now();
  // Every dataset before any model: a malformed file fails at once.
  const tasks = await Promise.all(suite.tasks.map((t) => loadTask(suite, t)));
  for (const t of tasks) {
    const fits = suite.methods.filter((m) => METHODS_BY_TYPE[t.type].includes(m));
    if (fits.length === 0) throw new SuiteError(suite.file, "methods", `none of ${suite.methods.join(", ")} fits task ${t.task.name} (${t.type} queries take ${METHODS_BY_TYPE[t.type].join(", ")})`);
  }
  if (options.out !== undefined) await mkdir(options.out, { recursive: true });
  const cache = options.cache === null ? null : EvidenceCache.open(options.cache);
  let lanes: Awaited<ReturnType<typeof runModelLanes>>;
  try {
    lanes = await runModelLanes(suite, tasks, { cache, reporter: options.reporter, started });
  } finally {
    cache?.close();
  }
  const evidence: BenchEvidence[] = [];
  const rows: BenchRow[] = [];
  // Cells in the suite's order (model, then task), whatever order the lanes finished in.
  for (const model of suite.models) {
    for (const t of tasks) {
      const cell = lanes.cells.find((c) => c.model === model && c.task === t);
      if (!cell) continue;
      evidence.push(cell.stats);
      const width = t.items[0]!.names.length;
      const probabilities = new Float64Array(t.items.length * width);
      const labels = new Int32Array(t.items.length);
      t.items.forEach((item, i) => {
        if (item.names.length !== width) throw new SuiteError(suite.file, `tasks.${t.task.name}.dataset`, `item ${item.id} has ${item.names.length} options, the first item ${width}: a suite task needs one option count`);
        const p = (cell.evidence[i]!.option_probabilities ?? cell.evidence[i]!.level_probabilities)!;
        item.names.forEach((n, j) => (probabilities[i * width + j] = p[n]!));
        labels[i] = item.names.indexOf(item.answer);
      });
      for (const method of suite.methods.filter((m) => METHODS_BY_TYPE[t.type].includes(m))) {
        for (const alpha of suite.alphas) {
          rows.push(benchCell({
            model, task: t.task.name, type: t.type, method, alpha, probabilities, width, labels,
            names: t.items.map((i) => i.names), groups: t.items.map((i) => i.group),
            repeats: suite.repeats, seed: suite.seed, calibrationFraction: suite.calibrationFraction,
          }));
        }
      }
    }
  }
  const summary: BenchSummary = {
    calibkit: await calibkitVersion(), createdAt: new Date().toISOString(), suite: suite.file, seed: suite.seed, repeats: suite.repeats,
    models: suite.models, tasks: tasks.map((t) => ({ name: t.task.name, dataset: t.task.dataset, items: t.items.length })),
    methods: suite.methods, alphas: suite.alphas, cache: options.cache, evidence, rows, failures: lanes.failures, totalSeconds: (performance.now() - started) / 1000,
  };
  if (options.out !== undefined) {
    await writeFile(join(options.out, "summary.json"), JSON.stringify(summary, null, 2) + "\n");
    await writeFile(join(options.out, "results.csv"), resultsCsv(rows, evidence));
    await writeFile(join(options.out, "conditional.csv"), conditionalCsv(rows));
    await writeFile(join(options.out, "report.html"), benchPageOf(summary));
  }
  return summary;
}
