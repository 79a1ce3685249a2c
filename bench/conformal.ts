// Speed of the conformal engine: calibrate and predict with n_cal = n_test = 100,000 and K = 10, for LAC,
// APS, RAPS, Venn–Abers and CQR, as ns per example and as a ratio to one plain read pass over the same
// probabilities (the memory-bound floor), measured in the same run. Run: npx tsx bench/conformal.ts
import { writeFileSync, mkdirSync } from "node:fs";
import os from "node:os";
import { performance } from "node:perf_hooks";
import {
  calibrateBelief,
  calibrateInterval,
  calibrateNumericInterval,
  calibrateSet,
  mulberry32,
  predictBelief,
  predictInterval,
  predictNumericInterval,
  predictSet,
} from "../src/conformal/index.js";

const N = 100_000;
const K = 10;
const REPEATS = 5;
const rng = mulberry32(2024);

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

let sink = 0;
function median(f: () => void): number {
  f();
  const t: number[] = [];
  for (let r = 0; r < REPEATS; r++) {
    const t0 = performance.now();
    f();
    t.push(performance.now() - t0);
  }
  t.sort((a, b) => a - b);
  return t[Math.floor(REPEATS / 2)]! * 1e6; // ns
}

const baseline = median(() => {
  let s = 0;
  const d = test.data;
  for (let i = 0; i < d.length; i++) s += d[i]!;
  sink += s;
}) / N;

type Row = { method: string; calibrate: number; predict: number; withP?: number };
const rows: Row[] = [];
const row = (i: number) => test.data.subarray(i * K, i * K + K);
const flatCal = { data: cal.data, width: K };

for (const method of ["LAC", "APS", "RAPS"] as const) {
  let c = calibrateSet({ probabilities: flatCal, labels: cal.labels }, { method, alpha: 0.1, rng });
  const calibrate = median(() => {
    c = calibrateSet({ probabilities: flatCal, labels: cal.labels }, { method, alpha: 0.1, rng });
  }) / N;
  const predict = median(() => {
    let s = 0;
    for (let i = 0; i < N; i++) s += predictSet(c, { probabilities: row(i) }, rng, { pValues: false }).indices.length;
    sink += s;
  }) / N;
  const withP = median(() => {
    let s = 0;
    for (let i = 0; i < N; i++) s += predictSet(c, { probabilities: row(i) }, rng).pValues[0]!;
    sink += s;
  }) / N;
  rows.push({ method, calibrate, predict, withP });
}

{
  const scores = Float64Array.from({ length: N }, (_, i) => cal.data[i * K]!);
  const labels = Uint8Array.from(cal.labels, (l) => (l === 0 ? 1 : 0));
  let c = calibrateBelief(scores, labels);
  const calibrate = median(() => {
    c = calibrateBelief(scores, labels);
  }) / N;
  const predict = median(() => {
    let s = 0;
    for (let i = 0; i < N; i++) s += predictBelief(c, test.data[i * K]!).probability;
    sink += s;
  }) / N;
  rows.push({ method: "Venn-Abers", calibrate, predict });
}

{
  let c = calibrateNumericInterval({ lower, upper, y }, { alpha: 0.1 });
  const calibrate = median(() => {
    c = calibrateNumericInterval({ lower, upper, y }, { alpha: 0.1 });
  }) / N;
  const predict = median(() => {
    let s = 0;
    for (let i = 0; i < N; i++) s += predictNumericInterval(c, { lower: lower[i]!, upper: upper[i]! }).upper;
    sink += s;
  }) / N;
  rows.push({ method: "CQR (numeric)", calibrate, predict });
}

{
  let c = calibrateInterval({ probabilities: flatCal, labels: cal.labels }, { method: "CQR", alpha: 0.1, rng });
  const calibrate = median(() => {
    c = calibrateInterval({ probabilities: flatCal, labels: cal.labels }, { method: "CQR", alpha: 0.1, rng });
  }) / N;
  const predict = median(() => {
    let s = 0;
    for (let i = 0; i < N; i++) s += predictInterval(c, { probabilities: row(i) }, rng).upper;
    sink += s;
  }) / N;
  rows.push({ method: "CQR (ordinal, 10 levels)", calibrate, predict });
}

const fmt = (x: number) => x.toFixed(1);
const lines = [
  "## conformal",
  "",
  `Command: \`npx tsx bench/conformal.ts\` — ${new Date().toISOString().slice(0, 10)}, ${os.cpus()[0]?.model ?? "unknown CPU"} (${os.cpus().length} cores), Node ${process.version}.`,
  "",
  `n_cal = n_test = ${N.toLocaleString("en")}, K = ${K}; median of ${REPEATS} runs after a warm-up. Baseline: one plain read pass summing the`,
  `test probabilities, ${baseline.toFixed(2)} ns per example (${K} doubles). Ratios are ns per example ÷ that baseline.`,
  "",
  "| method | calibrate ns/example | × read pass | predict ns/example | × read pass | predict + p-values ns/example | × read pass |",
  "|---|---:|---:|---:|---:|---:|---:|",
  ...rows.map((r) => `| ${r.method} | ${fmt(r.calibrate)} | ${fmt(r.calibrate / baseline)} | ${fmt(r.predict)} | ${fmt(r.predict / baseline)} | ${r.withP === undefined ? "–" : fmt(r.withP)} | ${r.withP === undefined ? "–" : fmt(r.withP / baseline)} |`),
  "",
  "Predict returns the set with per-option scores; + p-values adds one binary search over the n_cal sorted scores per option.",
  `Machine load average at the end of the run: ${os.loadavg()[0]!.toFixed(1)} (other work shared the cores; ratios to the same-run read pass are the comparable figure).`,
  "Venn–Abers is the binary predictor on p(option 0); its calibrate precomputes every test position (O(n log² n)).",
  "",
];
process.stdout.write(lines.join("\n") + `\n(sink ${sink > 0 ? "ok" : "0"})\n`);
mkdirSync(new URL("./results/", import.meta.url), { recursive: true });
writeFileSync(new URL("./results/conformal.md", import.meta.url), lines.join("\n"));
