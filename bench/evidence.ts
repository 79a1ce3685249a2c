// Benchmark: one evaluate request, 8 set queries × 4 options on one ~300-token context, stories260K.
// Compares the evidence builder's shared-prefix evaluation with (a) the floor — every unique token evaluated
// once in one pass — and (b) evaluating the context anew for each query, all measured in this run.
// Also measures dataset throughput for building calibration examples. Run: npx tsx bench/evidence.ts
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { getLlama, LlamaLogLevel, type Token } from "node-llama-cpp";
import { createLlamaCppAdapter, defaultModelsDir } from "../src/adapters/index.js";
import { buildEvaluateRequest, buildExampleRecords, queryPrompt } from "../src/evidence/index.js";
import { parseQueries } from "../src/evidence/buildEvaluateRequest.js";

const MODEL = join(defaultModelsDir(), "stories260K.gguf");
const REPS = 5;
const sentence = "Lily and her friend Tom went to the park with a big red ball and a small brown dog. ";
const adapter = await createLlamaCppAdapter({ modelPath: MODEL, gpu: false, embeddings: false });
const tokenCount = (text: string) => (adapter as unknown as { tokenizePrompt(t: string): Token[] }).tokenizePrompt(text).length;
let context = "";
while (tokenCount(context) < 300) context += sentence;
const topics = ["toy", "animal", "place", "colour", "friend", "food", "weather", "feeling"];
const queries = Object.fromEntries(topics.map((t, i) => [`q${i}`, {
  type: "set", instructions: `Which ${t} is in the story?`, calibration_profile: `bench-${t}`,
  options: { ball: "a toy", dog: "an animal", park: "a place", "red hat": "a colour" },
}]));
const parsed = parseQueries(queries);
const prompts = Object.values(parsed).map((q) => queryPrompt(q as Exclude<typeof q, { type: "route" }>, context));

// Unique tokens: the token tree of all prompts and continuations, as the adapter sees them.
const llama = await getLlama({ gpu: false, logLevel: LlamaLogLevel.error });
const model = await llama.loadModel({ modelPath: MODEL });
const tok = (t: string) => (adapter as unknown as { tokenizePrompt(t: string): Token[] }).tokenizePrompt(t);
const paths = prompts.flatMap((p) => p.continuations.map((c) => tok(p.prompt + c)));
const seen = new Set<string>();
for (const path of paths) for (let i = 1; i <= path.length; i++) seen.add(path.slice(0, i).join(","));
const uniqueTokens = seen.size;
const contextTokens = tok(context).length;

async function time(fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const t0 = performance.now();
  for (let r = 0; r < REPS; r++) await fn();
  return (performance.now() - t0) / REPS;
}

// (a) floor: as many tokens as the tree has unique ones, evaluated once in one sequence and one call, no
// probabilities read. One long sequence pays more attention work than the tree's short branches, so this
// floor is generous to the baselines.
const floorCtx = await model.createContext({ threads: 1, contextSize: 2048 });
const floorSeq = floorCtx.getSequence();
const floorTokens = paths.flat().slice(0, uniqueTokens);
const floorMs = await time(async () => {
  await floorSeq.clearHistory();
  await floorSeq.evaluateWithoutGeneratingNewTokens(floorTokens as Token[]);
});
// (b) naive: each query's prompt evaluated from scratch, then its options, one sequence at a time.
const naiveMs = await time(async () => {
  for (const p of prompts) {
    for (const c of p.continuations) {
      await floorSeq.clearHistory();
      const t = tok(p.prompt + c);
      const head = tok(p.prompt).length;
      await floorSeq.controlledEvaluate(t.map((x, i) => (i >= head - 1 && i < t.length - 1 ? [x, { generateNext: { probabilities: true } }] : x)) as never);
    }
  }
});
// Ours: the full evidence builder (templates, scoring, renormalising, schema validation).
const freshRoot = async () => (adapter as unknown as { seqs: { root: { clearHistory(): Promise<void> } } }).seqs.root.clearHistory();
const oursMs = await time(async () => {
  await freshRoot();
  await buildEvaluateRequest({ context, queries, adapter, accessHint: "exact" });
});

// Dataset throughput: 40 labelled examples of one set query, each with its own short context.
const dataset = Array.from({ length: 40 }, (_, i) => ({ context: `${sentence} Day ${i}: Lily found a ${["ball", "dog"][i % 2]}.`, label: ["ball", "dog"][i % 2] }));
const examples = await buildExampleRecords(dataset, { adapter, query: queries.q0, progress: "lines" });

const rows: [string, string][] = [
  ["context tokens", String(contextTokens)],
  ["unique tokens (context + 8 prompts + 32 options)", String(uniqueTokens)],
  ["(a) floor: unique tokens once, one pass", `${floorMs.toFixed(1)} ms`],
  ["(b) context anew for each query and option", `${naiveMs.toFixed(1)} ms (${(naiveMs / floorMs).toFixed(2)}× floor)`],
  ["calibkit evidence builder (shared prefix, batched)", `${oursMs.toFixed(1)} ms (${(oursMs / floorMs).toFixed(2)}× floor, goal ≤ 1.3×; ${(naiveMs / oursMs).toFixed(1)}× faster than (b))`],
  ["dataset throughput (40 examples, 1 set query × 4 options)", `${examples.examplesPerSecond.toFixed(1)} examples/s`],
];
for (const [k, v] of rows) console.log(`${k.padEnd(56)} ${v}`);

const section = [
  "## Evidence builder (bench/evidence.ts)", "",
  `Command: \`npx tsx bench/evidence.ts\` · date ${new Date().toISOString()} · CPU ${cpus()[0]?.model ?? "?"} · ${cpus().length} cores · node ${process.version} · load average at end ${loadavg().map((x) => x.toFixed(1)).join(" ")} (the machine is shared; ratios are measured in the same run) · model stories260K.gguf, threads 1, mean of ${REPS} runs`, "",
  "| measure | value |", "|---|---|", ...rows.map(([k, v]) => `| ${k} | ${v} |`), "",
].join("\n");
mkdirSync("bench/results", { recursive: true });
const out = "bench/results/evidence.md";
writeFileSync(out, section);
console.log(`\nwrote ${out}`);
await floorCtx.dispose();
await model.dispose();
await adapter.dispose();
