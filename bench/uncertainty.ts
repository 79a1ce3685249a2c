// Speed of the uncertainty scorers behind `calibkit scores` on a 10,000-line JSON Lines file of what a user with
// log-probabilities (L1) has per answer: 24 greedy tokens with their log-likelihoods and entropies, K = 5 samples of
// 8 words with their per-token log-likelihoods, the 5×5 NLI matrices and the greedy-to-sample similarities, p_true.
// Each figure is CPU time per line, a ratio to JSON.parse of the same lines measured in the same run (issue 26's goal:
// all L1 scorers ≤ 2× JSON.parse). Also the zod line schema, the command's whole in-process path, and the
// `calibkit scores` process end to end. Run: npx tsx bench/uncertainty.ts
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { scoresInputLineSchema } from "../src/api/index.js";
import { SCORERS, scoreItem, type ItemStatistics } from "../src/uncertainty/index.js";

const N = 10_000;
const K = 5;
const T = 24;
const REPEATS = 7;
let seed = 2026;
const rand = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
const WORDS = ["paris", "france", "capital", "the", "city", "of", "is", "lyon", "answer", "river", "seine", "north", "it", "was", "founded"];
const sentence = () => Array.from({ length: 8 }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(" ");
const logLik = (n: number) => Array.from({ length: n }, () => Math.log(0.05 + 0.95 * rand()));

const lines: string[] = [];
for (let i = 0; i < N; i++) {
  const e = Array.from({ length: K }, (_, a) => Array.from({ length: K }, (_, b) => (a === b ? 0.97 : 0.1 + 0.8 * rand())));
  const c = e.map((row) => row.map((p) => (1 - p) * rand()));
  lines.push(JSON.stringify({
    id: i,
    greedy_log_likelihoods: logLik(T),
    entropy: Array.from({ length: T }, () => 3 * rand()),
    sample_texts: Array.from({ length: K }, sentence),
    sample_log_likelihoods: Array.from({ length: K }, () => logLik(T)),
    semantic_matrix_entail: e,
    semantic_matrix_contra: c,
    greedy_sentence_similarity: Array.from({ length: K }, () => rand()),
    p_true: Math.log(rand()),
    correct: rand() < 0.6,
  }));
}
const l1 = SCORERS.filter((s) => s.level === "L1");
const l0 = SCORERS.filter((s) => s.level === "L0");

let sink = 0;
function cpu(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1e3;
}
/** Median CPU ns per line of each task, the tasks interleaved round by round after one warm-up round. */
function measure(tasks: Record<string, () => void>): Record<string, number> {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(tasks).map((k) => [k, []]));
  for (let r = 0; r <= REPEATS; r++) {
    for (const [name, f] of Object.entries(tasks)) {
      const t0 = cpu();
      f();
      if (r > 0) times[name]!.push((cpu() - t0) / N);
    }
  }
  return Object.fromEntries(Object.entries(times).map(([k, t]) => [k, t.sort((a, b) => a - b)[Math.floor(t.length / 2)]!]));
}

const parsed: ItemStatistics[] = lines.map((l) => {
  const { id: _id, correct: _c, ...stats } = JSON.parse(l) as Record<string, unknown>;
  return stats as ItemStatistics;
});
const t = measure({
  "JSON.parse": () => { for (const l of lines) sink += (JSON.parse(l) as { id: number }).id; },
  "all L1 scorers": () => { for (const s of parsed) sink += scoreItem(s, l1).scores.Perplexity!; },
  "all L0 scorers": () => { for (const s of parsed) sink += scoreItem(s, l0).scores.NumSemSets!; },
  "zod line schema": () => { for (const l of lines) sink += scoresInputLineSchema.parse(JSON.parse(l)).sample_texts!.length; },
  "command path, L1 scorers": () => {
    for (const l of lines) {
      const { id, correct: _c, ...stats } = scoresInputLineSchema.parse(JSON.parse(l));
      sink += JSON.stringify({ id, scores: scoreItem(stats, l1).scores }).length;
    }
  },
});

const dir = mkdtempSync(join(os.tmpdir(), "calibkit-bench-scores-"));
const file = join(dir, "lines.jsonl");
writeFileSync(file, lines.join("\n") + "\n");
const started = performance.now();
const proc = spawnSync(process.execPath, ["bin/calibkit.js", "scores", file, "--scorers", l1.map((s) => s.name).join(","), "--metrics"], {
  encoding: "utf8", maxBuffer: 1 << 28, env: { ...process.env, CALIBKIT_FROM_SOURCE: "1" },
});
const wall = performance.now() - started;
rmSync(dir, { recursive: true, force: true });
if (proc.status !== 0) throw new Error(`calibkit scores failed: ${proc.stderr}`);

const base = t["JSON.parse"]!;
const us = (ns: number) => (ns / 1000).toFixed(2);
const ratio = t["all L1 scorers"]! / base;
const section = [
  "## Uncertainty scores (bench/uncertainty.ts)",
  "",
  `Command: \`npx tsx bench/uncertainty.ts\` · ${new Date().toISOString()} · ${os.cpus()[0]?.model.trim()} · ${os.cpus().length} cores · Node ${process.version}`,
  "",
  `${N.toLocaleString("en")} lines of ${Math.round(lines.reduce((a, l) => a + l.length, 0) / N)} bytes on average: ${T} greedy tokens (log-likelihoods, entropies), K = ${K} samples of 8 words with ${T} per-token log-likelihoods each, the ${K}×${K} NLI matrices, ${K} greedy-to-sample similarities, p_true. CPU time per line, median of ${REPEATS} rounds after a warm-up, the tasks interleaved round by round. The L1 scorers (${l1.length}): ${l1.map((s) => s.name).join(", ")}; scoring includes deriving sample_log_probs, sample_tokens and the semantic classes once per line.`,
  "",
  "| per line | µs | × JSON.parse (same run) | goal |",
  "|---|---:|---:|---|",
  `| JSON.parse of the line (baseline) | ${us(base)} | 1.00 | |`,
  `| all L1 scorers (scoreItem) | ${us(t["all L1 scorers"]!)} | **${ratio.toFixed(2)}** | ≤ 2 ${ratio <= 2 ? "✓" : "✗"} |`,
  `| all L0 scorers (${l0.length}: ROUGE/BLEU, graph spectra, …) | ${us(t["all L0 scorers"]!)} | ${(t["all L0 scorers"]! / base).toFixed(2)} | |`,
  `| zod line schema (JSON.parse + validation) | ${us(t["zod line schema"]!)} | ${(t["zod line schema"]! / base).toFixed(2)} | |`,
  `| the command's path: parse, validate, score L1, serialise | ${us(t["command path, L1 scorers"]!)} | ${(t["command path, L1 scorers"]! / base).toFixed(2)} | |`,
  "",
  `\`calibkit scores FILE --scorers <the L1 scorers> --metrics\` as a process on the same file: ${(wall / 1000).toFixed(2)} s wall, start-up and the metrics table included. Load average at the end: ${os.loadavg().map((x) => x.toFixed(1)).join(" / ")} (the machine is shared; the same-run ratios are the comparable figures).`,
  "",
].join("\n");
process.stdout.write(section + `\n(sink ${sink !== 0 ? "ok" : "0"})\n`);
const out = process.env.CALIBKIT_BENCH_RESULTS ?? new URL("./results/", import.meta.url).pathname;
mkdirSync(out, { recursive: true });
writeFileSync(join(out, "uncertainty.md"), section);
