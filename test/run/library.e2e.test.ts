// The main job as a library (#13 point 1): runCalibration and runSuite called from TypeScript, no CLI, on the
// bundled tiny model, give the very summaries `calibkit run` and `calibkit bench` write for the same seed
// (timings, dates, ports and random ids aside), report their progress as events, and write nothing to the
// console themselves.
import { existsSync } from "node:fs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { BenchSummary, QueryRunSummary, RunSummary } from "../../src/report/index.js";
import {
  QueryTypeMismatchError, RunAbortedError, runCalibration, RunOptionError, runSuite, SuiteError, type ProgressEvent,
} from "../../src/index.js";
import { GGUF, runCalibkit } from "../cliProcess.js";

const E2E_TIMEOUT_MS = 240_000;
const readJson = async <T>(path: string) => JSON.parse(await readFile(path, "utf8")) as T;
/** What summary.json holds for a value: NaN and ±Infinity become null, as JSON.stringify writes them. */
const asJson = (x: unknown): unknown => JSON.parse(JSON.stringify(x));

/** A set run's summary less what differs between two runs by design: clocks, dates, the service's port, the monitor's id. */
function comparableRun(s: RunSummary): unknown {
  const { createdAt: _c, timings, totalSeconds: _s, service, audit, monitor, ...rest } = asJson(s) as RunSummary;
  return {
    ...rest, timings: timings.map((t) => ({ ...t, seconds: 0 })), service: { embedded: service.embedded }, audit: { ...audit, date: "" },
    monitor: { ...monitor, id: "", alerts: monitor.alerts.map((a) => ({ ...a, detected_at: "" })) },
  };
}

function comparableTyped(s: QueryRunSummary): unknown {
  const { createdAt: _c, timings, totalSeconds: _s, service, ...rest } = asJson(s) as QueryRunSummary;
  return { ...rest, timings: timings.map((t) => ({ ...t, seconds: 0 })), service: { embedded: service.embedded } };
}

/** Runs `work` and returns what it wrote to this process's stdout and stderr meanwhile. */
async function consoleDuring<T>(work: () => Promise<T>): Promise<{ value: T; written: string }> {
  const writes: string[] = [];
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  const capture = (chunk: unknown) => (writes.push(String(chunk)), true);
  process.stdout.write = capture as typeof process.stdout.write;
  process.stderr.write = capture as typeof process.stderr.write;
  try {
    return { value: await work(), written: writes.join("") };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
}

describe.skipIf(!existsSync(GGUF))("runCalibration and runSuite, the library face of calibkit run and calibkit bench", () => {
  it("runCalibration gives the summary `calibkit run` writes for the same seed, its progress as events, nothing on the console", async () => {
    const dir = await mkdtemp(join(tmpdir(), "calibkit-library-"));
    const cli = await runCalibkit(["run", "--model", GGUF, "--limit", "160", "--seed", "7", "--no-cache", "--out", join(dir, "cli")]);
    expect(cli.code, cli.stderr).toBe(0);

    const events: ProgressEvent[] = [];
    const lines: string[] = [];
    const { value: result, written } = await consoleDuring(() => runCalibration({
      model: GGUF, limit: 160, seed: 7, cache: null, out: join(dir, "lib"),
      onProgress: (e) => events.push(e), onLog: (line) => lines.push(line),
    }));
    expect(written).toBe("");
    expect(result.kind).toBe("choice");
    if (result.kind !== "choice") return;
    const onDisk = await readJson<RunSummary>(join(dir, "lib", "summary.json"));
    expect(result.files).toEqual({ summaryPath: join(dir, "lib", "summary.json"), reportPath: join(dir, "lib", "report.html") });
    expect(asJson(result.summary)).toEqual(onDisk);
    const fromCli = await readJson<RunSummary>(join(dir, "cli", "summary.json"));
    expect(comparableRun(result.summary)).toEqual(comparableRun(fromCli));
    expect(result.summary.crossCheck.disagreements).toEqual([]);

    // Each long step starts, advances to its total and ends, in that order.
    for (const step of ["evidence", "ingest", "evaluate"]) {
      const mine = events.filter((e) => e.step === step);
      expect(mine[0], step).toMatchObject({ type: "start" });
      expect(mine.at(-1), step).toMatchObject({ type: "end", done: mine[0]!.total });
      expect(mine.slice(1, -1).every((e) => e.type === "advance")).toBe(true);
    }
    // The lines the command prints on stderr are the library's log lines.
    for (const prefix of ["dataset: ", "model: ", "prompts: ", "evidence: "]) {
      const line = lines.find((l) => l.startsWith(prefix));
      expect(line, prefix).toBeDefined();
      expect(cli.stderr, prefix).toContain(`${line}\n`);
    }
  }, E2E_TIMEOUT_MS);

  it("runCalibration runs a typed query (belief) as `calibkit run --query-type belief` does", async () => {
    const dir = await mkdtemp(join(tmpdir(), "calibkit-library-"));
    const dataset = resolve("fixtures/yes-no.jsonl");
    const cli = await runCalibkit(["run", "--model", GGUF, "--dataset", dataset, "--limit", "120", "--calibration", "80", "--test", "40", "--quiet", "--no-cache", "--out", join(dir, "cli")]);
    expect(cli.code, cli.stderr).toBe(0);
    const lines: string[] = [];
    const result = await runCalibration({ model: GGUF, dataset, limit: 120, calibration: 80, test: 40, cache: null, onLog: (line) => lines.push(line) });
    expect(result.kind).toBe("typed");
    // The console names the level the summary and the report do (it printed the model's L4 beside their L3).
    const level = (result.summary as QueryRunSummary).model.accessLevel;
    expect(lines.find((l) => l.startsWith("model:"))).toMatch(new RegExp(`\\([^,]+, access level ${level}[;)]`));
    expect(result.queryType).toBe("belief");
    expect(result.files).toBeNull();
    expect(comparableTyped(result.summary as QueryRunSummary)).toEqual(comparableTyped(await readJson<QueryRunSummary>(join(dir, "cli", "summary.json"))));
  }, E2E_TIMEOUT_MS);

  it("stops at the next item once the caller's signal aborts: RunAbortedError, its temporary folder removed", async () => {
    const controller = new AbortController();
    const folders: string[] = [];
    const forgotten: string[] = [];
    const events: ProgressEvent[] = [];
    const run = runCalibration({
      model: GGUF, limit: 160, cache: null, signal: controller.signal,
      onTemporaryFolder: (path) => (folders.push(path), () => void forgotten.push(path)),
      onProgress: (e) => {
        events.push(e);
        if (e.type === "advance" && e.step === "evidence") controller.abort(new Error("enough"));
      },
    });
    await expect(run).rejects.toThrow(RunAbortedError);
    await expect(run).rejects.toMatchObject({ code: "RUN_ABORTED", cause: new Error("enough") });
    expect(folders).toHaveLength(1); // the embedded service's data folder
    expect(forgotten).toEqual(folders);
    expect(existsSync(folders[0]!)).toBe(false);
    expect(events.some((e) => e.step === "evaluate")).toBe(false);
  }, E2E_TIMEOUT_MS);

  it("runSuite, given the suite in code, computes the rows `calibkit bench` writes for the same file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "calibkit-library-"));
    const dataset = resolve("fixtures/story-cloze.jsonl");
    const file = join(dir, "suite.yaml");
    await writeFile(file, `models: [${GGUF}]\ntasks:\n  - name: cloze\n    dataset: ${dataset}\n    limit: 60\nmethods: [LAC, APS]\nalphas: [0.2]\nrepeats: 2\nseed: 5\n`);
    const cli = await runCalibkit(["bench", file, "--no-cache", "--quiet", "--out", join(dir, "cli")]);
    expect(cli.code, cli.stderr).toBe(0);
    const fromCli = await readJson<BenchSummary>(join(dir, "cli", "summary.json"));

    const events: ProgressEvent[] = [];
    const { value: result, written } = await consoleDuring(() => runSuite({
      suite: { models: [GGUF], tasks: [{ name: "cloze", dataset, limit: 60 }], methods: ["LAC", "APS"], alphas: [0.2], repeats: 2, seed: 5 },
      cache: null, onProgress: (e) => events.push(e),
    }));
    expect(written).toBe("");
    expect(result.files).toBeNull();
    const rows = (s: BenchSummary) => asJson(s.rows.map(({ seconds: _s, ...r }) => r));
    expect(rows(result.summary)).toEqual(rows(fromCli));
    expect(result.summary.rows).toHaveLength(2);
    const counts = (s: BenchSummary) => s.evidence.map((e) => ({ items: e.items, computed: e.computed, modelCalls: e.modelCalls }));
    expect(counts(result.summary)).toEqual(counts(fromCli));
    // One progress step per model (a suite runs its servers side by side, a line each).
    expect(events.at(-1)).toMatchObject({ type: "end", step: "evidence stories260K.gguf", done: 60, total: 60 });
  }, E2E_TIMEOUT_MS);
});

describe("the library's checks, before any model loads", () => {
  it("names the option at fault with a typed error", async () => {
    await expect(runCalibration({ alpha: 1.5 })).rejects.toMatchObject({ name: "RunOptionError", field: "alpha" });
    await expect(runCalibration({ falseAlarmRate: 0 })).rejects.toMatchObject({ field: "false-alarm-rate" });
    await expect(runCalibration({ dataset: "no/such/file.jsonl" })).rejects.toThrow(/--dataset: no file there \(.*no\/such\/file\.jsonl\)/);
    await expect(runCalibration({ method: "XYZ" })).rejects.toThrow(RunOptionError);
    await expect(runCalibration({ stages: [{ name: "a", url: "http://x", costPerCall: 1 }, { name: "a", url: "http://y", costPerCall: 2 }] }))
      .rejects.toThrow(/stage names must be distinct/);
    const file = join(await mkdtemp(join(tmpdir(), "calibkit-library-")), "afile");
    await writeFile(file, "");
    await expect(runCalibration({ out: join(file, "sub") })).rejects.toMatchObject({ name: "RunOptionError", field: "out" });
    await expect(runCalibration({ dataset: "fixtures/ordinal-sizes.jsonl", queryType: "set" })).rejects.toThrow(QueryTypeMismatchError);
    await expect(runCalibration({ dataset: "fixtures/pass-fail.jsonl", guarantee: "cost_budget" })).rejects.toMatchObject({ field: "guarantee" });
    await expect(runCalibration({ signal: AbortSignal.abort() })).rejects.toThrow(RunAbortedError);
  });

  it("checks a suite given in code field by field", async () => {
    await expect(runSuite({ suite: { models: [], tasks: [], methods: ["LAC"], alphas: [0.1] } })).rejects.toThrow(SuiteError);
    await expect(runSuite({ suite: { models: [GGUF], tasks: [{ name: "t", dataset: "fixtures/story-cloze.jsonl" }], methods: ["LAC"], alphas: [2] } }))
      .rejects.toMatchObject({ name: "SuiteError", field: "alphas[0]" });
  });
});
