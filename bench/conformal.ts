// Speed of the conformal engine at n_cal = n_test = 100,000, K = 10: the columnar batch API per method
// (calibrate + predict, ns per test example) against the goals of issue #14, each also as a ratio to one
// plain read pass over the test probabilities (the memory-bound floor) measured in the same run; numpy LAC
// on the same data when python3 has numpy; the per-row API; and `calibkit conformal` end to end on
// 100,000-record JSON Lines files. Run: npx tsx bench/conformal.ts (with CALIBKIT_BENCH_BASE=<checkout>, the
// engine rows against that checkout's engine in the same run).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import * as C from "../src/conformal/index.js";
import { commandSection } from "./_conformalCommand.js";

const N = 100_000;
const K = 10;
const REPEATS = 9;
const rng = C.mulberry32(2024);

function pool(n: number) {
  const data = new Float64Array(n * K);
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < K; j++) s += data[i * K + j] = Math.exp(3 * rng());
    let u = rng() * s;
    labels[i] = K - 1;
    for (let j = 0; j < K; j++) {
      u -= data[i * K + j]!;
      data[i * K + j]! /= s;
      if (u < 0 && labels[i] === K - 1) labels[i] = j;
    }
  }
  return { data, labels };
}
const cal = pool(N);
const test = pool(N);
const lower = Float64Array.from({ length: N }, () => rng() - 1);
const upper = Float64Array.from(lower, (x) => x + 1.5);
const y = Float64Array.from({ length: N }, () => 2 * rng() - 1);
const testLower = Float64Array.from({ length: N }, () => rng() - 1);
const testUpper = Float64Array.from(testLower, (x) => x + 1.5);

let sink = 0;
const f1 = (x: number) => x.toFixed(1);
/**
 * Median time of `f` in ns, after one warm-up run: CPU time of this process (user + system) by default, wall
 * time with CALIBKIT_BENCH_CLOCK=wall. On a machine shared with other work the wall clock counts the time other
 * processes held the core; the CPU clock does not (it still feels their cache and memory traffic).
 */
const WALL = process.env.CALIBKIT_BENCH_CLOCK === "wall";
function now(): number {
  if (WALL) return performance.now() * 1e6;
  const u = process.cpuUsage();
  return (u.user + u.system) * 1e3;
}
function median(f: () => void, repeats = REPEATS): number {
  f();
  const t: number[] = [];
  for (let r = 0; r < repeats; r++) {
    const t0 = now();
    f();
    t.push(now() - t0);
  }
  t.sort((a, b) => a - b);
  return t[Math.floor(repeats / 2)]!;
}
const readPass = () => {
  let s = 0;
  const d = test.data;
  for (let i = 0; i < d.length; i++) s += d[i]!;
  sink += s;
};
// The floor pass takes about a millisecond: time 20 of them at once so that the clock's resolution does not matter.
const floor = median(() => {
  for (let r = 0; r < 20; r++) readPass();
}) / (20 * N);

interface Row { name: string; total: number; calibrate?: number; predict?: number; goal?: number; per?: string }
/**
 * The engine's rows as steps, each timing one operation on `E` (this checkout's engine, or a base checkout's:
 * CALIBKIT_BENCH_BASE) and giving its rows.
 */
function engineSteps(E: typeof C): (() => Row[])[] {
  const calBatch = { probabilities: cal.data, width: K, labels: cal.labels };
  const testBatch = { probabilities: test.data, width: K };
  const setSteps = ([["LAC", 100], ["APS", 300], ["RAPS", 400]] as const).map(([method, goal]) => (): Row[] => {
    let c = E.calibrateSetBatch(calBatch, { method, alpha: 0.1, rng });
    const calibrate = median(() => void (c = E.calibrateSetBatch(calBatch, { method, alpha: 0.1, rng }))) / N;
    const predict = median(() => void (sink += E.predictSetBatch(c, testBatch, { rng }).sizes[0]!)) / N;
    const total = median(() => void (sink += E.predictSetBatch(E.calibrateSetBatch(calBatch, { method, alpha: 0.1, rng }), testBatch, { rng }).sizes[0]!)) / N;
    return [{ name: `${method}${method === "LAC" ? "" : " randomized"}${method === "RAPS" ? " (λ, k_reg tuned on 20%)" : ""}`, total, calibrate, predict, goal }];
  });
  const withPValues = (): Row[] => {
    const c = E.calibrateSetBatch(calBatch, { method: "APS", alpha: 0.1, rng });
    const withP = median(() => void (sink += E.predictSetBatch(c, testBatch, { rng, scores: true, pValues: true }).pValues![0]!)) / N;
    return [{ name: "APS predict with scores and p-values", total: withP }];
  };
  const intervals = (): Row[] => {
    const rows: Row[] = [];
    const numeric = { lower, upper, y };
    const testNumeric = { lower: testLower, upper: testUpper };
    const fresh = median(() => void (sink += E.predictNumericIntervalBatch(E.calibrateNumericIntervalBatch(numeric, { alpha: 0.1 }), testNumeric).upper[0]!)) / N;
    rows.push({ name: "CQR (numeric, new output columns each call; bounds read, the per-row threshold and n columns written only when read)", total: fresh });
    // The same with the scores and the interval bounds written into columns the caller passes and reuses (as a
    // stream recalibrating per window does; each call's calibration is dropped before the next call reuses them).
    const into = { lower: new Float64Array(N), upper: new Float64Array(N) };
    const scores = new Float64Array(N);
    let c = E.calibrateNumericIntervalBatch(numeric, { alpha: 0.1, scores });
    const calibrate = median(() => void (c = E.calibrateNumericIntervalBatch(numeric, { alpha: 0.1, scores }))) / N;
    const predict = median(() => void (sink += E.predictNumericIntervalBatch(c, testNumeric, { into }).upper[0]!)) / N;
    const total = median(() => void (sink += E.predictNumericIntervalBatch(E.calibrateNumericIntervalBatch(numeric, { alpha: 0.1, scores }), testNumeric, { into }).upper[0]!)) / N;
    rows.push({ name: "CQR (numeric, scores and bounds into the caller's reused columns)", total, calibrate, predict, goal: 30 });
    const ordinal = median(() => void (sink += E.predictIntervalBatch(E.calibrateIntervalBatch(calBatch, { method: "CQR", alpha: 0.1, rng }), testBatch, { rng }).upper[0]!)) / N;
    rows.push({ name: "CQR (ordinal, 10 levels)", total: ordinal });
    return rows;
  };
  const beliefs = (): Row[] => {
    const rows: Row[] = [];
    const scores = Float64Array.from({ length: N }, (_, i) => cal.data[i * K]!);
    const labels = Uint8Array.from(cal.labels, (l) => (l === 0 ? 1 : 0));
    const testScores = Float64Array.from({ length: N }, (_, i) => test.data[i * K]!);
    let c = E.calibrateBelief(scores, labels);
    const fit = median(() => void (c = E.calibrateBelief(scores, labels))) / N;
    const predict = median(() => void (sink += E.predictBeliefBatch(c, testScores).p1[0]!)) / N;
    rows.push({ name: "Venn–Abers fit (per calibration example); predict per test example", total: fit, predict, goal: 300 });
    // The same fit at 4n: O(n log n) shows as a per-example cost that grows by a constant (the sort's), not by
    // a factor, when n quadruples.
    const s4 = Float64Array.from({ length: 4 * N }, () => rng());
    const l4 = Uint8Array.from(s4, (x) => (rng() < x ? 1 : 0));
    const fit4 = median(() => void (sink += E.calibrateBelief(s4, l4).n), 3) / (4 * N);
    const s1 = s4.subarray(0, N);
    const l1 = l4.subarray(0, N);
    const fit1 = median(() => void (sink += E.calibrateBelief(s1, l1).n), 3) / N;
    rows.push({ name: `Venn–Abers fit on uniform scores, n = ${N.toLocaleString("en")} → ${(4 * N).toLocaleString("en")} (per calibration example)`, total: fit4, per: `${f1(fit1)} at n → ${f1(fit4)} at 4n` });
    return rows;
  };
  // The per-row API (a thin layer on the same kernels): one object per prediction.
  const perRow = (["LAC", "APS"] as const).map((method) => (): Row[] => {
    const c = E.calibrateSet({ probabilities: { data: cal.data, width: K }, labels: cal.labels }, { method, alpha: 0.1, rng });
    const predict = median(() => {
      let s = 0;
      for (let i = 0; i < N; i++) s += E.predictSet(c, { probabilities: test.data.subarray(i * K, i * K + K) }, rng, { pValues: false }).indices.length;
      sink += s;
    }) / N;
    return [{ name: `${method} per-row predictSet (predict only)`, total: predict }];
  });
  return [...setSteps, withPValues, intervals, beliefs, ...perRow];
}

// CALIBKIT_BENCH_BASE=<checkout>: every row also on that checkout's engine (say a worktree of the commit before a
// refactor). Each engine is timed in a process of its own (CALIBKIT_BENCH_ENGINE names the checkout a child
// loads; one process timing both shares its call sites' type feedback between the two and favours one), this one
// and the base in alternation, ROUNDS each, each going first equally often, on the same seeded data; each figure
// is the lowest of its rounds (the one least disturbed by other work on the machine). The numpy and command
// sections are skipped.
const BASE = process.env.CALIBKIT_BENCH_BASE;
const ENGINE = process.env.CALIBKIT_BENCH_ENGINE;
const ROUNDS = 4;
if (ENGINE) {
  const E = (await import(pathToFileURL(join(ENGINE, "src/conformal/index.ts")).href)) as typeof C;
  process.stdout.write(JSON.stringify(engineSteps(E).flatMap((step) => step())));
  process.exit(0);
}
const baseLines: string[] = [];
let rows: Row[];
if (!BASE) {
  rows = engineSteps(C).flatMap((step) => step());
} else {
  const here = fileURLToPath(new URL("..", import.meta.url));
  const timed = (checkout: string): Row[] => {
    const child = spawnSync(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url)], {
      cwd: here, encoding: "utf8", maxBuffer: 1 << 24, env: { ...process.env, CALIBKIT_BENCH_BASE: "", CALIBKIT_BENCH_ENGINE: checkout },
    });
    if (child.status !== 0) throw new Error(`the engine of ${checkout}: ${child.stderr}`);
    return JSON.parse(child.stdout) as Row[];
  };
  const now: Row[][] = [];
  const base: Row[][] = [];
  for (let r = 0; r < ROUNDS; r++) {
    if (r % 2 === 0) {
      now.push(timed(here));
      base.push(timed(BASE));
    } else {
      base.push(timed(BASE));
      now.push(timed(here));
    }
  }
  rows = now[0]!;
  const lowest = (runs: Row[][], j: number) => Math.min(...runs.map((run) => run[j]!.total));
  baseLines.push(
    `### this checkout against ${BASE} (same run, a process per engine in alternation, the lowest of ${ROUNDS} each)`,
    "",
    "| ns per test example | this checkout | base | this ÷ base |",
    "|---|---:|---:|---:|",
    ...rows.map((row, j) => `| ${row.name} | ${f1(lowest(now, j))} | ${f1(lowest(base, j))} | ${(lowest(now, j) / lowest(base, j)).toFixed(2)} |`),
    "",
  );
}

// numpy LAC on the same data, in the same run.
const dir = mkdtempSync(join(os.tmpdir(), "calibkit-bench-conformal-"));
let numpy: number | string = "not measured (CALIBKIT_BENCH_BASE: the engine only)";
if (!BASE) {
  writeFileSync(join(dir, "cal.f64"), cal.data);
  writeFileSync(join(dir, "cal.i32"), cal.labels);
  writeFileSync(join(dir, "test.f64"), test.data);
  const script = `
import time, math, sys
import numpy as np
d = sys.argv[1]; K = ${K}
P = np.fromfile(d + "/cal.f64").reshape(-1, K); y = np.fromfile(d + "/cal.i32", dtype=np.int32)
T = np.fromfile(d + "/test.f64").reshape(-1, K)
def lac():
    s = 1.0 - P[np.arange(len(y)), y]
    k = math.ceil((len(s) + 1) * 0.9)
    q = np.partition(s, k - 1)[k - 1]
    m = (1.0 - T) <= q
    return m.sum(axis=1)
lac(); ts = []
for _ in range(${REPEATS}):
    t0 = time.process_time(); lac(); ts.append(time.process_time() - t0)
ts.sort(); print(ts[len(ts) // 2] * 1e9 / len(T))
`;
  const r = spawnSync("python3", ["-c", script, dir], { encoding: "utf8" });
  numpy = r.status === 0 ? Number(r.stdout.trim()) : `not measured (${(r.stderr || "python3 not found").split("\n").filter(Boolean).pop()})`;
}

// `calibkit conformal` end to end on JSON Lines files (bench/_conformalCommand.ts).
const commandLines = BASE ? [] : await commandSection({ dir, n: N, width: K, cal, test, median });
rmSync(dir, { recursive: true, force: true });

const lines = [
  "## conformal",
  "",
  `Command: \`npx tsx bench/conformal.ts\` — ${new Date().toISOString().slice(0, 16)}Z, ${os.cpus()[0]?.model ?? "unknown CPU"} (${os.cpus().length} cores), Node ${process.version}.`,
  "",
  `n_cal = n_test = ${N.toLocaleString("en")}, K = ${K}; median of ${REPEATS} runs after a warm-up, ${WALL ? "wall-clock time" : "CPU time of the process (user + system; CALIBKIT_BENCH_CLOCK=wall for wall time)"}. Floor: one plain read pass summing the test`,
  `probabilities, **${floor.toFixed(2)} ns per example** (${K} doubles). "× floor" = ns per example ÷ that floor, same run.`,
  "",
  "| columnar batch API | ns per test example (calibrate + predict) | × floor | goal | calibrate | predict |",
  "|---|---:|---:|---:|---:|---:|",
  ...rows.map((r) => `| ${r.name}${r.per ? ` (${r.per})` : ""} | ${f1(r.total)} | ${f1(r.total / floor)} | ${r.goal === undefined ? "–" : `≤ ${r.goal}${r.total <= r.goal ? " ✓" : " ✗"}`} | ${r.calibrate === undefined ? "–" : f1(r.calibrate)} | ${r.predict === undefined ? "–" : f1(r.predict)} |`),
  "",
  typeof numpy === "number"
    ? `numpy LAC on the same data (calibrate + predict: \`np.partition\` for the order statistic, one vectorised compare), same run: **${f1(numpy)} ns per example**, ${f1(numpy / floor)}× floor; calibkit's batch LAC takes ${f1(rows[0]!.total / numpy)}× numpy's time.`
    : `numpy LAC: ${numpy}.`,
  "",
  ...commandLines,
  ...baseLines,
  `Machine load average at the end of the run: ${os.loadavg().map((x) => x.toFixed(1)).join(" / ")} (1/5/15 min; other work shares the cores, so the ratios to the same-run floor are the comparable figures).`,
  "",
];
process.stdout.write(lines.join("\n") + `\n(sink ${sink !== 0 ? "ok" : "0"})\n`);
const out = process.env.CALIBKIT_BENCH_RESULTS ?? new URL("./results/", import.meta.url).pathname;
mkdirSync(out, { recursive: true });
// A comparison run prints its figures only: bench/results/conformal.md stays the full run's.
if (!BASE) writeFileSync(join(out, "conformal.md"), lines.join("\n"));
