// A realistic BenchSummary for report tests: two synthetic models (one sharp and overconfident, one
// flatter) on one 4-option task with subjects as groups, through the suite's own cell computation.
import { benchCell } from "../../src/run/bench/metrics.js";
import { mulberry32 } from "../../src/conformal/index.js";
import type { BenchSummary } from "../../src/report/index.js";

const NAMES = ["A", "B", "C", "D"];
const GROUPS = ["history", "physics", "law"];

function task(sharpen: number, n: number, seed: number) {
  const rng = mulberry32(seed);
  const probabilities = new Float64Array(n * 4);
  const labels = new Int32Array(n);
  const groups: string[] = [];
  for (let i = 0; i < n; i++) {
    const raw = NAMES.map(() => rng() ** 2);
    const s = raw.reduce((a, b) => a + b, 0);
    let u = rng();
    let label = 0;
    while (label < 3 && u > raw[label]! / s) u -= raw[label++]! / s;
    const sharp = raw.map((q) => q ** sharpen);
    const t = sharp.reduce((a, b) => a + b, 0);
    sharp.forEach((q, j) => (probabilities[i * 4 + j] = q / t));
    labels[i] = label;
    groups.push(GROUPS[Math.floor(rng() * GROUPS.length)]!);
  }
  return { probabilities, labels, groups, names: Array.from({ length: n }, () => NAMES) };
}

export function sampleBench(repeats = 3): BenchSummary {
  const models = ["models/sharp.gguf", "models/flat"];
  const data = [task(3, 600, 1), task(1.2, 600, 1)];
  const rows = models.flatMap((model, m) => ["LAC", "APS"].flatMap((method) => [0.1, 0.2].map((alpha) =>
    benchCell({ model, task: "quiz", type: "set", method, alpha, width: 4, ...data[m]!, repeats, seed: 7, calibrationFraction: 0.5 }))));
  return {
    calibkit: "test", createdAt: "2026-11-23T00:00:00.000Z", suite: "suite.yaml", seed: 7, repeats, models,
    tasks: [{ name: "quiz", dataset: "quiz.jsonl", items: 600 }], methods: ["LAC", "APS"], alphas: [0.1, 0.2], cache: null,
    evidence: models.map((model) => ({ model, task: "quiz", items: 600, hits: 0, computed: 600, modelCalls: 38, seconds: 2, itemsPerSecond: 300, tokensPerSecond: 9000, accessLevel: "L3" })),
    rows, totalSeconds: 5,
  };
}
