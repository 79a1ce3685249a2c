// The evidence cache end to end (#13): a repeat run with another α makes no model call, and a run killed
// with SIGKILL at random moments of its evidence step, then restarted, computes each row once and ends
// with the summary of an uninterrupted run.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../src/conformal/index.js";
import type { QueryRunSummary, RunSummary } from "../../src/report/index.js";
import { CHOICE_BATCH } from "../../src/evidence/index.js";
import { EvidenceCache } from "../../src/store/index.js";

const MODELS = process.env.CALIBKIT_MODELS_DIR ?? resolve("..", "shared", "models");
const GGUF = join(MODELS, "stories260K.gguf");
const LIMIT = 400;

interface Child {
  pid: number;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  kill(): void;
  /** Resolves when stderr first matches `pattern`. */
  when(pattern: RegExp): Promise<void>;
}

function calibkit(args: string[]): Child {
  const child = spawn(process.execPath, ["bin/calibkit.js", ...args], { env: { ...process.env, CALIBKIT_FROM_SOURCE: "1" } });
  let stdout = "";
  let stderr = "";
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  child.stdout.on("data", (d) => (stdout += String(d)));
  child.stderr.on("data", (d) => {
    stderr += String(d);
    for (const w of waiters.splice(0)) (w.pattern.test(stderr) ? w.resolve() : waiters.push(w));
  });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((ok) =>
    child.on("exit", (code, signal) => ok({ code, signal, stdout, stderr })));
  return {
    pid: child.pid!,
    done,
    kill: () => void child.kill("SIGKILL"),
    when: (pattern) => new Promise((ok) => (pattern.test(stderr) ? ok() : waiters.push({ pattern, resolve: ok }))),
  };
}

const summaryOf = async (dir: string) => JSON.parse(await readFile(join(dir, "summary.json"), "utf8")) as RunSummary;

/**
 * The summary less what differs between runs by design: clocks and dates, the embedded service's port, the
 * monitor's random id, the cache's own counts.
 */
function comparable(s: RunSummary): unknown {
  const { createdAt: _c, timings: _t, totalSeconds: _s, evidenceCache: _e, service, audit, monitor, ...rest } = s;
  return {
    ...rest, service: { embedded: service.embedded }, audit: { ...audit, date: "" },
    monitor: { ...monitor, id: "", alerts: monitor.alerts.map((a) => ({ ...a, detected_at: "" })) },
  };
}

const evidenceSeconds = (s: RunSummary) => s.timings.find((t) => t.step === "evidence")!.seconds;

function rowsIn(dir: string): { total: number; writers: Record<string, number>; inFlight: Record<string, number> } {
  if (!existsSync(join(dir, "evidence.sqlite"))) return { total: 0, writers: {}, inFlight: {} };
  const cache = EvidenceCache.open(dir);
  try {
    const writers = cache.writers();
    return { total: Object.values(writers).reduce((a, b) => a + b, 0), writers, inFlight: cache.inFlight() };
  } finally {
    cache.close();
  }
}

describe.skipIf(!existsSync(GGUF))("the evidence cache", () => {
  it("serves a repeat run with another --alpha without a single model call, its evidence step under 10% of the first's", async () => {
    const base = await mkdtemp(join(tmpdir(), "calibkit-cache-e2e-"));
    const args = ["run", "--model", GGUF, "--limit", String(LIMIT), "--cache", join(base, "cache"), "--quiet"];
    const first = await calibkit([...args, "--out", join(base, "a")]).done;
    expect(first.code, first.stderr).toBe(0);
    const second = await calibkit([...args, "--alpha", "0.2", "--method", "APS", "--out", join(base, "b")]).done;
    expect(second.code, second.stderr).toBe(0);
    const [a, b] = [await summaryOf(join(base, "a")), await summaryOf(join(base, "b"))];
    expect(a.evidenceCache).toMatchObject({ hits: 0, computed: LIMIT });
    expect(a.evidenceCache!.modelCalls).toBeGreaterThan(0);
    expect(b.evidenceCache).toMatchObject({ hits: LIMIT, computed: 0, modelCalls: 0 });
    expect(b.profile.alpha).toBe(0.2);
    expect(evidenceSeconds(b)).toBeLessThan(0.1 * evidenceSeconds(a));
    // --no-cache computes again and agrees with the cached run.
    const third = await calibkit([...args, "--no-cache", "--out", join(base, "c")]).done;
    expect(third.code, third.stderr).toBe(0);
    const c = await summaryOf(join(base, "c"));
    expect(c.evidenceCache).toMatchObject({ dir: null, hits: 0, computed: LIMIT });
    expect(comparable(c)).toEqual(comparable(a));
  }, 300_000);

  it("serves a typed (belief) run repeated with another --alpha without a model call, and --no-cache gives the cached numbers", async () => {
    const base = await mkdtemp(join(tmpdir(), "calibkit-cache-typed-"));
    const args = ["run", "--model", GGUF, "--dataset", "fixtures/yes-no.jsonl", "--limit", "200", "--quiet"];
    const typed = async (extra: string[], out: string) => {
      const r = await calibkit([...args, ...extra, "--out", join(base, out)]).done;
      expect(r.code, r.stderr).toBe(0);
      return { summary: JSON.parse(await readFile(join(base, out, "summary.json"), "utf8")) as QueryRunSummary, stdout: r.stdout };
    };
    const cache = ["--cache", join(base, "cache")];
    const first = await typed(cache, "a");
    const second = await typed([...cache, "--alpha", "0.2"], "b");
    const third = await typed(["--no-cache"], "c");
    expect(first.summary.queryType).toBe("belief");
    expect(first.summary.evidenceCache).toMatchObject({ hits: 0, computed: 200 });
    expect(first.summary.evidenceCache!.modelCalls).toBeGreaterThan(0);
    expect(second.summary.evidenceCache).toMatchObject({ hits: 200, computed: 0, modelCalls: 0 });
    expect(second.stdout).toMatch(/evidence: 200 row\(s\) from the cache, 0 computed, 0 model call\(s\)/);
    expect(second.summary.profile.alpha).toBe(0.2);
    expect(rowsIn(join(base, "cache")).total).toBe(200);
    expect(third.summary.evidenceCache).toMatchObject({ dir: null, hits: 0, computed: 200 });
    // The rows read back are the numbers the model gives: the same Venn–Abers section as computed afresh.
    expect(third.summary.section).toEqual(first.summary.section);
  }, 300_000);

  it("killed with SIGKILL at seeded random moments of the evidence step, restarted, computes each row once and ends as an uninterrupted run", async () => {
    const base = await mkdtemp(join(tmpdir(), "calibkit-kill-e2e-"));
    const args = ["run", "--model", GGUF, "--limit", String(LIMIT), "--seed", "5"];
    const whole = await calibkit([...args, "--cache", join(base, "fresh"), "--out", join(base, "whole"), "--quiet"]).done;
    expect(whole.code, whole.stderr).toBe(0);
    const reference = await summaryOf(join(base, "whole"));
    const span = evidenceSeconds(reference) * 1000;

    const cacheDir = join(base, "cache");
    const rng = mulberry32(20261123);
    const before: number[] = [];
    let inFlight = 0;
    for (let round = 0; round < 2; round++) {
      const child = calibkit([...args, "--cache", cacheDir, "--out", join(base, `killed-${round}`)]);
      await child.when(/evidence: \d+\/\d+/);
      await new Promise((r) => setTimeout(r, Math.floor(rng() * 0.35 * span)));
      child.kill();
      const end = await child.done;
      expect(end.signal ?? end.code).toBe("SIGKILL");
      // Killed inside the evidence step: it never printed the step's closing line.
      expect(end.stderr).not.toMatch(/evidence: \d+\/\d+ in /);
      const rows = rowsIn(cacheDir);
      before.push(rows.total);
      // What the kill left marked in flight is the killed process's batch alone (at most CHOICE_BATCH items):
      // every row it had finished computing was committed, and the previous round's marks were reclaimed.
      expect(Object.keys(rows.inFlight).every((w) => w === String(child.pid)), JSON.stringify(rows.inFlight)).toBe(true);
      inFlight = rows.inFlight[String(child.pid)] ?? 0;
      expect(inFlight).toBeLessThanOrEqual(CHOICE_BATCH);
      expect(rows.total + inFlight).toBeLessThanOrEqual(LIMIT);
    }
    expect(before[1]!).toBeGreaterThanOrEqual(before[0]!);
    expect(before[0]!).toBeLessThan(LIMIT);

    const last = await calibkit([...args, "--cache", cacheDir, "--out", join(base, "resumed"), "--quiet"]).done;
    expect(last.code, last.stderr).toBe(0);
    const resumed = await summaryOf(join(base, "resumed"));
    // Only what was missing is computed, and every row was written by exactly one process.
    expect(resumed.evidenceCache).toMatchObject({ hits: before[1], computed: LIMIT - before[1]! });
    // Of what it computed, exactly the items in flight at the last kill had been started before: nothing that
    // had been computed was lost, so only those are computed twice across the processes.
    expect(resumed.evidenceCache!.redone).toBe(inFlight);
    const rows = rowsIn(cacheDir);
    expect(rows.total).toBe(LIMIT);
    expect(Object.values(rows.writers).reduce((a, b) => a + b, 0)).toBe(LIMIT);
    expect(rows.inFlight).toEqual({});
    expect(comparable(resumed)).toEqual(comparable(reference));
  }, 400_000);
});
