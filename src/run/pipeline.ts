// The main job, step by step: split the dataset, build evidence with the local model, create the profile
// and add the calibration examples, evaluate the test split in client_evidence requests, audit on held-out
// examples, feed a coverage monitor, and cross-check every answer against the local conformal engine.
import { basename } from "node:path";
import type { ExampleRecord, Profile } from "../api/index.js";
import { CrossChecker } from "../client/index.js";
import { mulberry32 } from "../conformal/index.js";
import { splitDataset, type Dataset } from "../datasets/index.js";
import { choicesOf, methodFor, type ChoiceItem, type Choices } from "./choices.js";
import type { RunSummary } from "../report/index.js";
import { reliabilityBins, setSizeHistogram, sweepCoverage } from "./analysis.js";
import { modelSource, type ChoiceSource } from "./choiceSource.js";
import { mostProbable, writeItemsLog, type ItemLine } from "./itemsLog.js";
import { loadFewshot, withoutExemplars } from "./fewshot.js";
import { connect } from "./connect.js";
import { coverageBand } from "./coverageBand.js";
import type { ResolvedCalibrationOptions } from "./calibrationOptions.js";
import type { Reporter } from "./events.js";
import { exampleRecord, scoredRow, type Scored } from "./records.js";
import { runStatistics } from "./statistics.js";
import { checkSplitSizes } from "./preflight.js";
import { auditStep, evaluateTestSplit, monitorStep } from "./steps.js";
import { RunInputError } from "./errors.js";
import { calibkitVersion } from "./version.js";

/** Examples per POST …/examples while ingesting (each batch is one progress step). */
const INGEST_BATCH = 100;

function profileNameFor(options: ResolvedCalibrationOptions, remote: boolean): string {
  if (options.profile) return options.profile;
  const stem = basename(options.fromLmEval ?? options.dataset).replace(/\.[^.]*$/, "").replace(/[^A-Za-z0-9._-]/g, "-").replace(/^[^A-Za-z0-9]+/, "") || "dataset";
  // A shared remote service may already hold a profile of that name: never add to someone else's.
  return remote ? `${stem}-${Date.now().toString(36)}` : stem;
}

const optionCounts = (choices: Choices): number[] => [...new Set(choices.items.map((i) => i.names.length))].sort((a, b) => a - b);

/**
 * The profile's set_pooling: items whose option names differ (in count or spelling) are calibrated together
 * (`pooled`), or per option count when asked (`by_option_count`); items over one list of names keep the
 * service's default (exact names), which calibrates them the same way.
 */
export function setPoolingFor(choices: Choices, byOptionCount: boolean): "pooled" | "by_option_count" | undefined {
  if (choices.type !== "set") return undefined;
  if (byOptionCount) return "by_option_count";
  const shapes = new Set(choices.items.map((i) => [...i.names].sort().join("\u0000")));
  return shapes.size > 1 ? "pooled" : undefined;
}

/** A set or interval run: the items are multiple-choice or ordinal. */
export async function runChoicePipeline(options: ResolvedCalibrationOptions, dataset: Dataset, reporter: Reporter, preset?: { source: ChoiceSource }): Promise<RunSummary> {
  const log = reporter.log;
  const started = performance.now();
  const timings: RunSummary["timings"] = [];
  const timed = async <T>(step: string, items: number | undefined, work: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    const value = await work();
    timings.push({ step, seconds: (performance.now() - t0) / 1000, ...(items !== undefined ? { items } : {}) });
    return value;
  };
  const progress = reporter.step;

  const choices = choicesOf(dataset);
  const method = methodFor(choices.type, options.method, options.dataset);
  const fewshot = await loadFewshot(options.prompt.fewshot, choices.type, options.datasetOptions);
  const { kept, dropped } = withoutExemplars(choices.items, fewshot);
  if (dropped > 0) log(`few-shot: ${dropped} dataset item(s) are exemplars and are left out`);
  const all = options.limit !== undefined ? kept.slice(0, options.limit) : kept;
  const split = splitDataset(all, options, mulberry32(options.seed));
  checkSplitSizes({ calibration: split.calibration.length, test: split.test.length }, all.length, options.alpha, options.dataset);
  log(`dataset: ${all.length} items → calibration ${split.calibration.length}, test ${split.test.length}, audit ${split.audit.length}, monitor ${split.monitor.length} (seed ${options.seed})`);

  const source = options.fromLmEval
    ? preset!.source
    : await modelSource(options, choices.type, fewshot, (work) => timed("open model", undefined, work));
  try {
    const { accessLevel, backendName, promptHash } = source;
    for (const line of source.describe) log(line);
    const recordCtx = { source: basename(options.fromLmEval ?? options.dataset), accessLevel, fingerprint: source.fingerprint, promptHash };
    const records = (xs: Scored[]): ExampleRecord[] => xs.map((x) => exampleRecord(x, recordCtx));

    // The service before the long evidence step, so a wrong URL or API key fails at once.
    await using service = await connect(options, reporter);
    const client = service.client;
    const name = profileNameFor(options, !service.embedded);
    log(`service: ${service.baseUrl}${service.embedded ? " (embedded)" : ""}, profile "${name}"`);
    const setPooling = setPoolingFor(choices, options.byOptionCount);
    if (setPooling) log(`calibration: ${setPooling === "pooled" ? `one across option counts ${optionCounts(choices).join(", ")}` : `each option count on its own (${optionCounts(choices).join(", ")})`}`);
    const createdProfile = await client.createProfile({
      name, backend: { provider: "client_evidence", name: backendName, access_level: accessLevel },
      method, alpha: options.alpha, strict_fingerprint: false, prompt_template_hash: promptHash,
      ...(setPooling ? { set_pooling: setPooling } : {}),
    });
    // The cross-check recomputes from exactly the examples this run adds: an existing profile would mix in others.
    if (createdProfile.n > 0) {
      throw new RunInputError(options.dataset, `profile "${name}" already holds ${createdProfile.n} examples on ${service.baseUrl}; pick a new --profile name`);
    }

    const ordered: ChoiceItem[] = [...split.calibration, ...split.test, ...split.audit, ...split.monitor];
    const built = await timed("evidence", ordered.length, async () => {
      const bar = progress("evidence", ordered.length);
      try {
        return await source.evidence(ordered, (n) => bar.increment(n));
      } finally {
        bar.stop();
      }
    });
    const evidence = built.evidence;
    if (!options.fromLmEval) log(`evidence: ${built.hits} row(s) from the cache${source.cacheDir ? ` (${source.cacheDir})` : " (--no-cache)"}, ${built.computed} computed${built.redone ? ` (${built.redone} of them in flight when an earlier run was stopped)` : ""}, ${source.modelCalls()} model call(s)`);
    const scored: Scored[] = ordered.map((item, i) => ({ item, evidence: evidence[i]! }));
    const parts = {
      calibration: scored.slice(0, split.calibration.length),
      test: scored.slice(split.calibration.length, split.calibration.length + split.test.length),
      audit: scored.slice(split.calibration.length + split.test.length, ordered.length - split.monitor.length),
      monitor: scored.slice(ordered.length - split.monitor.length),
    };
    const calibrationRecords = records(parts.calibration);
    await timed("ingest", calibrationRecords.length, async () => {
      const bar = progress("ingest", calibrationRecords.length);
      try {
        for (let i = 0; i < calibrationRecords.length; i += INGEST_BATCH) {
          const batch = calibrationRecords.slice(i, i + INGEST_BATCH);
          await client.addExamples(name, batch);
          bar.increment(batch.length);
        }
      } finally {
        bar.stop();
      }
    });
    const profile: Profile = await client.getProfile(name);
    const checker = new CrossChecker(profile, calibrationRecords);

    const t = await timed("evaluate", parts.test.length, async () => {
      const bar = progress("evaluate", parts.test.length);
      try {
        return await evaluateTestSplit(client, checker, parts.test, { type: choices.type, profile: name, backendName, accessLevel }, bar);
      } finally {
        bar.stop();
      }
    });
    const audit = await timed("audit", parts.audit.length, () => auditStep(client, checker, name, records(parts.audit), options.alpha));
    const monitor = await timed("monitor", parts.monitor.length, () =>
      monitorStep(client, checker, profile, records(parts.monitor), options.alpha, options.falseAlarmRate));

    if (options.out !== undefined) {
      const entries = (["calibration", "test", "audit", "monitor"] as const).flatMap((split) => parts[split].map((x, i): ItemLine => {
        const p = (x.evidence.option_probabilities ?? x.evidence.level_probabilities)!;
        return {
          id: x.item.id, split, prompt: source.promptOf(x.item), option_probabilities: p, label: x.item.answer,
          model_answer: mostProbable(p), answer: split === "test" ? t.answers[i]! : null,
        };
      }));
      log(`items: ${await writeItemsLog(options.out, entries)}`);
    }
    const calRows = parts.calibration.map(scoredRow);
    const testRows = parts.test.map(scoredRow);
    const m = parts.test.length;
    const report = checker.report;
    const summary: RunSummary = {
      calibkit: await calibkitVersion(),
      createdAt: new Date().toISOString(),
      model: source.model,
      ...(source.source ? { source: source.source } : {}),
      dataset: { path: options.fromLmEval ?? options.dataset, kind: dataset.kind, items: all.length, seed: options.seed },
      queryType: choices.type,
      service: { url: service.baseUrl, embedded: service.embedded },
      profile: {
        name, method: profile.method, alpha: profile.alpha, n: profile.n, status: profile.status, minimumN: profile.minimum_n, recommendedN: profile.recommended_n,
        ...(setPooling ? { setPooling } : {}),
      },
      split: { calibration: parts.calibration.length, test: m, audit: parts.audit.length, monitor: parts.monitor.length },
      test: {
        n: m, target: 1 - options.alpha, coverage: t.covered / m, band: coverageBand(m, profile.n, options.alpha),
        averageSetSize: t.sizes.reduce((a, b) => a + b, 0) / m, accuracy: t.correct / m, setSizes: setSizeHistogram(t.sizes),
      },
      sweep: sweepCoverage(calRows, testRows, choices.type, method, name),
      reliability: reliabilityBins(t.pairs),
      statistics: runStatistics({
        type: choices.type, method, alpha: options.alpha, seed: name, calibration: calRows, pairs: t.pairs, audit,
        test: parts.test.map((x, i) => ({ ...testRows[i]!, names: x.item.names, size: t.sizes[i]!, covered: t.hits[i]!, ...(x.item.group !== undefined ? { group: x.item.group } : {}) })),
        profile: { n: profile.n, minimumN: profile.minimum_n, recommendedN: profile.recommended_n },
      }),
      audit,
      monitor,
      crossCheck: { answers: report.answers, fields: report.fields, disagreements: report.disagreements },
      timings,
      evidenceCache: { dir: source.cacheDir, hits: built.hits, computed: built.computed, redone: built.redone, modelCalls: source.modelCalls() },
      totalSeconds: (performance.now() - started) / 1000,
    };
    return summary;
  } finally {
    await source.dispose();
  }
}
