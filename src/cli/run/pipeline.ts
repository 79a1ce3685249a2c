// The main job, step by step: split the dataset, build evidence with the local model, create the profile
// and add the calibration examples, evaluate the test split in client_evidence requests, audit on held-out
// examples, feed a coverage monitor, and cross-check every answer against the local conformal engine.
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import type { ExampleRecord, Profile } from "../../api/index.js";
import { openAdapter } from "../../adapters/index.js";
import { checkAudit, checkMonitor, CrossChecker, localMonitorPath } from "../../client/index.js";
import { mulberry32 } from "../../conformal/index.js";
import { splitDataset, type Dataset, type MultipleChoiceItem } from "../../datasets/index.js";
import type { RunSummary } from "../../report/index.js";
import { eValuePath, reliabilityBins, setSizeHistogram, sweepCoverage, type BeliefPair } from "./analysis.js";
import { CLOZE_TEMPLATE_HASH, clozeEvidence } from "./clozeEvidence.js";
import { connect } from "./connect.js";
import { coverageBand } from "./coverageBand.js";
import type { RunOptions } from "./options.js";
import { startProgress } from "./progress.js";
import { evaluateRequest, exampleRecord, QUERY_NAME, scoredRow, type Scored } from "./records.js";
import { RunInputError } from "./errors.js";

/** Examples per POST …/examples while ingesting (each batch is one progress step). */
const INGEST_BATCH = 100;

async function calibkitVersion(): Promise<string> {
  const pkg = JSON.parse(await readFile(new URL("../../../package.json", import.meta.url), "utf8")) as { version?: string };
  return pkg.version ?? "unknown";
}

export interface RunResult {
  summary: RunSummary;
}

function profileNameFor(options: RunOptions, remote: boolean): string {
  if (options.profile) return options.profile;
  const stem = basename(options.dataset).replace(/\.[^.]*$/, "").replace(/[^A-Za-z0-9._-]/g, "-").replace(/^[^A-Za-z0-9]+/, "") || "dataset";
  // A shared remote service may already hold a profile of that name: never add to someone else's.
  return remote ? `${stem}-${Date.now().toString(36)}` : stem;
}

export async function runPipeline(options: RunOptions, dataset: Dataset, log: (line: string) => void): Promise<RunResult> {
  const started = performance.now();
  const timings: RunSummary["timings"] = [];
  const timed = async <T>(step: string, items: number | undefined, work: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    const value = await work();
    timings.push({ step, seconds: (performance.now() - t0) / 1000, ...(items !== undefined ? { items } : {}) });
    return value;
  };
  const progress = (label: string, total: number) => startProgress(label, total, { quiet: options.quiet });

  if (dataset.kind !== "multiple_choice") {
    throw new RunInputError(options.dataset, `holds ${dataset.kind} items; calibkit run calibrates set queries and needs a multiple-choice dataset (options and an answer per item)`);
  }
  const all = options.limit !== undefined ? dataset.items.slice(0, options.limit) : dataset.items;
  const split = splitDataset(all, options, mulberry32(options.seed));
  if (split.calibration.length < 2 || split.test.length < 1) throw new RunInputError(options.dataset, `has ${all.length} usable items, too few to split`);
  log(`dataset: ${all.length} items → calibration ${split.calibration.length}, test ${split.test.length}, audit ${split.audit.length}, monitor ${split.monitor.length} (seed ${options.seed})`);

  const adapter = await timed("open model", undefined, () => openAdapter(options.model));
  try {
    log(`model: ${options.model} (${adapter.provider}, ${adapter.accessLevel})`);
    // Evidence ≤ L3: the cloze scores are exact log-likelihoods; no hidden states are sent.
    const accessLevel = adapter.accessLevel === "L4" ? "L3" : adapter.accessLevel;
    const backendName = `${adapter.provider}:${adapter.model}`;
    const recordCtx = { source: basename(options.dataset), accessLevel, fingerprint: adapter.fingerprint };
    const records = (xs: Scored[]): ExampleRecord[] => xs.map((x) => exampleRecord(x, recordCtx));

    // The service before the long evidence step, so a wrong URL or API key fails at once.
    await using service = await connect(options.service, log);
    const client = service.client;
    const name = profileNameFor(options, !service.embedded);
    log(`service: ${service.baseUrl}${service.embedded ? " (embedded)" : ""}, profile "${name}"`);
    const createdProfile = await client.createProfile({
      name, backend: { provider: "client_evidence", name: backendName, access_level: accessLevel },
      method: options.method, alpha: options.alpha, strict_fingerprint: false, prompt_template_hash: CLOZE_TEMPLATE_HASH,
    });
    // The cross-check recomputes from exactly the examples this run adds: an existing profile would mix in others.
    if (createdProfile.n > 0) {
      throw new RunInputError(options.dataset, `profile "${name}" already holds ${createdProfile.n} examples on ${service.baseUrl}; pick a new --profile name`);
    }

    const ordered: MultipleChoiceItem[] = [...split.calibration, ...split.test, ...split.audit, ...split.monitor];
    const evidence = await timed("evidence", ordered.length, async () => {
      const bar = progress("evidence", ordered.length);
      try {
        return await clozeEvidence(ordered, adapter, (n) => bar.increment(n));
      } finally {
        bar.stop();
      }
    });
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

    // Test split: one client_evidence request per item, each answer cross-checked at once.
    const sizes: number[] = [];
    const pairs: BeliefPair[] = [];
    let covered = 0;
    let correct = 0;
    await timed("evaluate", parts.test.length, async () => {
      const bar = progress("evaluate", parts.test.length);
      try {
        for (const x of parts.test) {
          const request = evaluateRequest(x, name, backendName, accessLevel);
          const response = await client.evaluate(request);
          checker.check(request as never, response, x.item.id);
          const answer = response.answers[QUERY_NAME] as { set: string[]; venn_abers: Record<string, [number, number]> };
          sizes.push(answer.set.length);
          if (answer.set.includes(x.item.answer)) covered++;
          const p = x.evidence.option_probabilities!;
          const top = Object.keys(p).reduce((a, b) => (p[b]! > p[a]! ? b : a));
          if (top === x.item.answer) correct++;
          for (const [option, [p0, p1]] of Object.entries(answer.venn_abers)) pairs.push({ p0, p1, gold: option === x.item.answer });
          bar.increment();
        }
      } finally {
        bar.stop();
      }
    });

    // Audit on held-out examples, recomputed locally.
    const auditRecords = records(parts.audit);
    let audit: RunSummary["audit"] = { result: "skipped", realizedCoverage: NaN, ci: [0, 1], sample: 0, target: 1 - options.alpha, date: new Date().toISOString() };
    if (auditRecords.length > 0) {
      const result = await timed("audit", auditRecords.length, () => client.audit(name, auditRecords));
      checkAudit(checker, auditRecords, options.alpha, result);
      audit = { result: result.result, realizedCoverage: result.realized_coverage, ci: result.ci, sample: result.sample, target: result.target, date: result.date };
    }

    // Monitor: created now, fed the stream in one batch (judged against the calibration as it stands).
    const monitorRecords = records(parts.monitor);
    const created = await client.createMonitor(name, { type: "coverage", false_alarm_rate: options.falseAlarmRate, target: options.alpha, labelled_sample_rate: 1 });
    let monitorView: Record<string, unknown> = created;
    let path = { path: [] as { n: number; eValue: number }[], miscovered: [] as boolean[] };
    let alerts: RunSummary["monitor"]["alerts"] = [];
    if (monitorRecords.length > 0) {
      const local = localMonitorPath(checker, monitorRecords, created.id, profile.n, created.target, created.false_alarm_rate);
      await timed("monitor", monitorRecords.length, () => client.addExamples(name, monitorRecords));
      monitorView = (await client.listMonitors(name)).monitors.find((m) => m.id === created.id) ?? created;
      checkMonitor(checker, monitorView, local);
      alerts = (await client.listAlerts(name, created.id)).alerts.map((a) => ({ type: a.type, severity: a.severity, n: a.n, e_value: a.e_value, message: a.message, detected_at: a.detected_at }));
      path = local;
    }

    const calRows = parts.calibration.map(scoredRow);
    const testRows = parts.test.map(scoredRow);
    const m = parts.test.length;
    const report = checker.report;
    const summary: RunSummary = {
      calibkit: await calibkitVersion(),
      createdAt: new Date().toISOString(),
      model: { path: options.model, backend: adapter.provider, accessLevel, fingerprint: adapter.fingerprint },
      dataset: { path: options.dataset, kind: dataset.kind, items: all.length, seed: options.seed },
      service: { url: service.baseUrl, embedded: service.embedded },
      profile: { name, method: profile.method, alpha: profile.alpha, n: profile.n, status: profile.status, minimumN: profile.minimum_n, recommendedN: profile.recommended_n },
      split: { calibration: parts.calibration.length, test: m, audit: parts.audit.length, monitor: parts.monitor.length },
      test: {
        n: m, target: 1 - options.alpha, coverage: covered / m, band: coverageBand(m, profile.n, options.alpha),
        averageSetSize: sizes.reduce((a, b) => a + b, 0) / m, accuracy: correct / m, setSizes: setSizeHistogram(sizes),
      },
      sweep: sweepCoverage(calRows, testRows, options.method, name),
      reliability: reliabilityBins(pairs),
      audit,
      monitor: {
        id: created.id, type: created.type, target: created.target, falseAlarmRate: created.false_alarm_rate,
        status: String(monitorView.status), threshold: 1 / created.false_alarm_rate,
        path: path.path.length ? path.path : eValuePath([], options.alpha, options.falseAlarmRate), alerts,
      },
      crossCheck: { answers: report.answers, fields: report.fields, disagreements: report.disagreements },
      timings,
      totalSeconds: (performance.now() - started) / 1000,
    };
    return { summary };
  } finally {
    await adapter.dispose();
  }
}
