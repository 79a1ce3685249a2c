// The main job for belief, gate, claim, judge and route queries: split, evidence (the local model's, and the
// cascade stages' for calibration items), a client_evidence profile, the calibration examples, one evaluate
// request per test item cross-checked as it arrives, and the guarantee's quantity measured on the test split.
import { basename } from "node:path";
import { countingAdapter, createOpenAICompatibleAdapter, openAdapter, type CountingAdapter, type ModelAdapter } from "../../adapters/index.js";
import type { AccessLevel, Answer, EvaluateRequest, ExampleRecord } from "../../api/index.js";
import { writeItemsLog, type ItemLine } from "../itemsLog.js";
import { CrossChecker, InsufficientCalibrationError, type EvaluationClient } from "../../client/index.js";
import { mulberry32 } from "../../conformal/index.js";
import { splitDataset, type Dataset } from "../../datasets/index.js";
import type { QueryRunSummary } from "../../report/index.js";
import { EvidenceCache } from "../../store/index.js";
import { connect } from "../connect.js";
import { RunInputError } from "../errors.js";
import type { ResolvedCalibrationOptions } from "../calibrationOptions.js";
import type { Reporter } from "../events.js";
import { calibkitVersion } from "../version.js";
import type { RowCache } from "./cachedCalls.js";
import { driverFor } from "./drivers.js";
import type { Driver, Prepared, Stage, TypedQuery } from "./types.js";

const INGEST_BATCH = 100;
const STAGE_MAX_TOKENS = 4;
const QUERY_NAME = "answer";

/** The answers and the request id (which seeds randomized answers, so the cross-check needs it). */
async function evaluateOne(client: EvaluationClient, request: EvaluateRequest): Promise<{ answers: Record<string, Answer>; request_id?: string | undefined }> {
  try {
    const response = await client.evaluate(request);
    return { answers: response.answers, request_id: response.request_id };
  } catch (err) {
    // Too few examples for the guarantee: the heuristic answers are still answers, and still checked.
    if (err instanceof InsufficientCalibrationError) return { answers: err.answers as Record<string, Answer>, request_id: err.response?.request_id ?? err.requestId };
    throw err;
  }
}

/** Items made ready without a model (an lm-eval file's generations): the run skips the model and the evidence step. */
export interface TypedPreset {
  prepared: Prepared[];
  model: QueryRunSummary["model"];
  backendName: string;
  accessLevel: AccessLevel;
  describe: string[];
  source: NonNullable<QueryRunSummary["source"]>;
  /** Fields of an item's items.jsonl line beyond the common ones (its prompt, answer, grade, responses). */
  logFields(p: Prepared): Record<string, unknown>;
}

export async function runTypedPipeline(options: ResolvedCalibrationOptions, type: TypedQuery, dataset: Dataset, reporter: Reporter, preset?: TypedPreset): Promise<QueryRunSummary> {
  const log = reporter.log;
  const started = performance.now();
  const timings: QueryRunSummary["timings"] = [];
  const timed = async <T>(step: string, items: number | undefined, work: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    const value = await work();
    timings.push({ step, seconds: (performance.now() - t0) / 1000, ...(items !== undefined ? { items } : {}) });
    return value;
  };
  const driver: Driver = await driverFor(options, type, dataset);
  if (!preset && !driver.kinds.includes(dataset.kind)) {
    throw new RunInputError(options.dataset, `holds ${dataset.kind} items; ${type} queries read ${driver.kinds.join(" or ")} items (docs/run.md)`);
  }
  if (driver.needsStages && options.stages.length === 0) {
    throw new RunInputError(options.dataset, `${type} queries need cascade stages: give --stage NAME=URL (e.g. a \`calibkit serve-model\` URL) at least once`);
  }
  const items = (preset?.prepared ?? dataset.items) as readonly Dataset["items"][number][];
  const all = options.limit !== undefined ? items.slice(0, options.limit) : items;
  const split = splitDataset(all, { calibration: options.calibration, test: options.test, audit: 0, monitor: 0 }, mulberry32(options.seed));
  if (split.calibration.length < 2 || split.test.length < 1) throw new RunInputError(options.dataset, `has ${all.length} usable items, too few to split`);
  log(`dataset: ${all.length} ${dataset.kind} items → calibration ${split.calibration.length}, test ${split.test.length} (seed ${options.seed}); ${type} queries`);

  // Every inference call, the local model's and the stages', is counted: a run served from the cache makes none.
  const counted: CountingAdapter[] = preset ? [] : [countingAdapter(await timed("open model", undefined, () => openAdapter(options.model)))];
  const adapter = counted[0]?.adapter;
  const modelCalls = () => counted.reduce((a, c) => a + c.calls(), 0);
  const stages: Stage[] = [];
  const opened: ModelAdapter[] = [];
  const rows: RowCache = { cache: options.cache === null ? null : EvidenceCache.open(options.cache), model: options.model, hits: 0, computed: 0, redone: 0 };
  try {
    for (const s of options.stages) {
      counted.push(countingAdapter(await createOpenAICompatibleAdapter({ baseUrl: s.url })));
      // A stage answering free-form items decodes as many tokens as the run's own model.
      stages.push({ ...s, maxTokens: options.generation?.maxTokens ?? STAGE_MAX_TOKENS, adapter: counted.at(-1)!.adapter });
    }
    const accessLevel = preset ? preset.accessLevel : adapter!.accessLevel === "L4" ? "L3" : adapter!.accessLevel;
    const backendName = preset ? preset.backendName : `${adapter!.provider}:${adapter!.model}`;
    if (preset) for (const line of preset.describe) log(line);
    else {
      // The level the evidence is sent at (the summary's and the report's), and what the model exposes when more.
      const exposes = adapter!.accessLevel !== accessLevel ? `; the model exposes ${adapter!.accessLevel}` : "";
      log(`model: ${options.model} (${adapter!.provider}, access level ${accessLevel}${exposes})${stages.length ? `; stages ${stages.map((s) => `${s.name} ${s.url} ${s.costPerCall}¢`).join(", ")}` : ""}`);
    }
    const config = { backends: stages.map((s) => ({ name: s.name, provider: "vllm" as const, base_url: s.url, cost_cents_per_call: s.costPerCall, cost_cents_per_1k_tokens: 0, max_tokens: s.maxTokens })) };
    await using service = await connect(options, reporter, config);
    const client = service.client;
    const stem = options.profile ?? `${basename(options.fromLmEval ?? options.dataset).replace(/\.[^.]*$/, "").replace(/[^A-Za-z0-9._-]/g, "-").replace(/^[^A-Za-z0-9]+/, "") || "dataset"}-${type}`;
    const name = options.profile ?? (service.embedded ? stem : `${stem}-${Date.now().toString(36)}`);
    const backend = { provider: "client_evidence", name: backendName, access_level: accessLevel } as const;
    const openModel = async (pathOrUrl: string) => {
      counted.push(countingAdapter(await openAdapter(pathOrUrl)));
      opened.push(counted.at(-1)!.adapter);
      return counted.at(-1)!.adapter;
    };
    const ctx = { adapter: adapter!, accessLevel, stages, rows, alpha: options.alpha, guarantee: options.guarantee, target: options.target, delta: options.delta, batchSize: options.batchSize, progress: (_: number) => undefined, openModel };
    const created = await client.createProfile({ name, backend, alpha: options.alpha, strict_fingerprint: false, ...(await driver.profileFields?.(ctx)) });
    if (created.n > 0) throw new RunInputError(options.dataset, `profile "${name}" already holds ${created.n} examples on ${service.baseUrl}; pick a new --profile name`);

    const ordered = [...split.calibration, ...split.test] as Dataset["items"][number][];
    const prepared: Prepared[] = await timed("evidence", ordered.length, async () => {
      const bar = reporter.step("evidence", ordered.length);
      try {
        if (preset) {
          bar.increment(ordered.length);
          return ordered as unknown as Prepared[];
        }
        return await driver.prepare(ordered, { ...ctx, progress: (n) => bar.increment(n) });
      } finally {
        bar.stop();
      }
    });
    const evidenceCalls = modelCalls();
    if (!preset) log(`evidence: ${rows.hits} row(s) from the cache${rows.cache ? ` (${rows.cache.dir})` : " (--no-cache)"}, ${rows.computed} computed, ${evidenceCalls} model call(s)`);
    const calibration = prepared.slice(0, split.calibration.length);
    const test = prepared.slice(split.calibration.length);
    const records: ExampleRecord[] = calibration.map((p) => ({ ...p.record, source: `${basename(options.fromLmEval ?? options.dataset)}#${p.id}` }));
    await timed("ingest", records.length, async () => {
      for (let i = 0; i < records.length; i += INGEST_BATCH) await client.addExamples(name, records.slice(i, i + INGEST_BATCH));
    });
    const profile = await client.getProfile(name);
    const stageCosts = Object.fromEntries((await client.listBackends()).backends.flatMap((b) => (b.name !== undefined && b.cost_cents_per_call !== undefined ? [[b.name, b.cost_cents_per_call]] : [])));
    const checker = new CrossChecker(profile, records, { stageCosts });
    const outcomes = await timed("evaluate", test.length, async () => {
      const bar = reporter.step("evaluate", test.length);
      const out: { prepared: Prepared; answer: Answer }[] = [];
      try {
        // Gate fdr with --batch-size: each request carries a batch of test queries, one Benjamini–Hochberg batch.
        const size = type === "gate" && options.guarantee === "fdr" ? options.batchSize ?? 1 : 1;
        for (let k = 0; k < test.length; k += size) {
          const batch = test.slice(k, k + size);
          const nameOf = (j: number) => (size === 1 ? QUERY_NAME : `${QUERY_NAME}${j}`);
          const request = {
            context: size === 1 ? batch[0]!.context : Object.fromEntries(batch.map((p, j) => [nameOf(j), p.context])),
            ...(driver.clientEvidence ? { backend } : {}),
            queries: Object.fromEntries(batch.map((p, j) => [nameOf(j), { ...p.query, calibration_profile: name }])),
          } as unknown as EvaluateRequest;
          const response = await evaluateOne(client, request);
          const answers = response.answers;
          checker.check(request, response, size === 1 ? batch[0]!.id : `batch${k / size}`);
          batch.forEach((p, j) => out.push({ prepared: p, answer: answers[nameOf(j)]! }));
          bar.increment(batch.length);
        }
      } finally {
        bar.stop();
      }
      return out;
    });
    if (driver.finish) await driver.finish(outcomes, prepared);
    else if (options.out !== undefined) {
      const answers = new Map(outcomes.map((o) => [o.prepared, o.answer]));
      const lines = prepared.map((p, i): ItemLine => ({
        id: p.id, split: i < calibration.length ? "calibration" : "test", prompt: p.context,
        option_probabilities: ((p.query.evidence as { option_probabilities?: Record<string, number> } | undefined)?.option_probabilities) ?? null,
        label: p.truth, ...preset?.logFields(p), answer: answers.get(p) ?? null,
      }));
      log(`items: ${await writeItemsLog(options.out, lines)}`);
    }
    const report = checker.report;
    return {
      calibkit: await calibkitVersion(),
      createdAt: new Date().toISOString(),
      queryType: type,
      model: preset ? preset.model : { path: options.model, backend: adapter!.provider, accessLevel, fingerprint: adapter!.fingerprint },
      ...(preset ? { source: preset.source } : {}),
      dataset: { path: options.fromLmEval ?? options.dataset, kind: dataset.kind, items: all.length, seed: options.seed },
      service: { url: service.baseUrl, embedded: service.embedded },
      profile: { name, alpha: profile.alpha, n: profile.n, status: profile.status, minimumN: profile.minimum_n, recommendedN: profile.recommended_n },
      stages: stages.map((s) => ({ name: s.name, url: s.url, costPerCall: s.costPerCall })),
      split: { calibration: calibration.length, test: test.length },
      section: driver.summarise(outcomes, { ...ctx, calibrationN: profile.n, calibration }),
      crossCheck: { answers: report.answers, fields: report.fields, unchecked: report.unchecked, uncheckedReasons: report.uncheckedReasons, disagreements: report.disagreements },
      timings,
      evidenceCache: { dir: rows.cache?.dir ?? null, hits: rows.hits, computed: rows.computed, redone: rows.redone, modelCalls: evidenceCalls },
      totalSeconds: (performance.now() - started) / 1000,
    };
  } finally {
    rows.cache?.close();
    await adapter?.dispose();
    for (const s of stages) await s.adapter.dispose();
    for (const a of opened) await a.dispose();
  }
}
