// Benchmark: `calibkit serve-model` slots. 8 concurrent /v1/completions requests (64 tokens each, end of
// sequence ignored) against a server with 4 slots, and against the same server with 1 slot (the baseline:
// one request at a time, as before slots), measured in this run with the variants alternated round by round.
// Also streaming against one JSON answer for the same request. Run: npx tsx bench/serve-model.ts
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { createLlamaCppAdapter, defaultModelsDir, startModelServer, type ModelServer } from "../src/adapters/index.js";

const MODEL = join(defaultModelsDir(), "stories260K.gguf");
const REPS = Number(process.env.REPS ?? 5);
const CONCURRENT = 8;
const TOKENS = 64;

async function serve(parallel: number): Promise<{ server: ModelServer; dispose: () => Promise<void> }> {
  const adapter = await createLlamaCppAdapter({ modelPath: MODEL, gpu: false, embeddings: false, threads: 1, parallelSequences: parallel });
  const server = await startModelServer({ adapter });
  return { server, dispose: async () => (await server.close(), await adapter.dispose()) };
}

const body = (seed: number, stream = false) => JSON.stringify({
  prompt: "Once upon a time", max_tokens: TOKENS, temperature: 1, seed, ignore_eos: true, stream,
});

async function burst(url: string): Promise<number> {
  const started = performance.now();
  const answers = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) =>
    fetch(`${url}/v1/completions`, { method: "POST", body: body(i) }).then((r) => r.json() as Promise<{ usage: { completion_tokens: number } }>)));
  if (answers.some((a) => a.usage.completion_tokens !== TOKENS)) throw new Error("a request generated fewer tokens than asked");
  return performance.now() - started;
}

/** One request, streamed or not: total time and time to the first text. */
async function single(url: string, stream: boolean): Promise<{ total: number; first: number }> {
  const started = performance.now();
  const res = await fetch(`${url}/v1/completions`, { method: "POST", body: body(1, stream) });
  let first = Number.NaN;
  const reader = res.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (value && Number.isNaN(first)) first = performance.now() - started;
    if (done) break;
  }
  return { total: performance.now() - started, first };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const range = (xs: number[]) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;

const four = await serve(4);
const one = await serve(1);
await burst(four.server.url);
await burst(one.server.url);
const times = { four: [] as number[], one: [] as number[], streamed: [] as number[], json: [] as number[], firstStreamed: [] as number[], firstJson: [] as number[] };
for (let r = 0; r < REPS; r++) {
  times.one.push(await burst(one.server.url));
  times.four.push(await burst(four.server.url));
  const s = await single(four.server.url, true);
  const j = await single(four.server.url, false);
  times.streamed.push(s.total);
  times.firstStreamed.push(s.first);
  times.json.push(j.total);
  times.firstJson.push(j.first);
}
await four.dispose();
await one.dispose();

const total = CONCURRENT * TOKENS;
const [m4, m1] = [median(times.four), median(times.one)];
const rows = [
  ["8 concurrent requests × 64 tokens, 1 slot (baseline)", `${m1.toFixed(0)} ms (range ${range(times.one)}; ${(total / m1 * 1000).toFixed(0)} tokens/s)`],
  ["8 concurrent requests × 64 tokens, 4 slots", `${m4.toFixed(0)} ms (range ${range(times.four)}; ${(total / m4 * 1000).toFixed(0)} tokens/s; **${(m1 / m4).toFixed(2)}× the baseline's throughput**)`],
  ["one request, JSON answer: total / first byte", `${median(times.json).toFixed(0)} ms / ${median(times.firstJson).toFixed(0)} ms`],
  ["one request, streamed: total / first byte", `${median(times.streamed).toFixed(0)} ms (${(median(times.streamed) / median(times.json)).toFixed(2)}× JSON) / ${median(times.firstStreamed).toFixed(0)} ms`],
];
const md = `## serve-model slots (bench/serve-model.ts)

Command: \`npx tsx bench/serve-model.ts\` · date ${new Date().toISOString()} · CPU ${cpus()[0]?.model ?? "?"} · ${cpus().length} cores · node ${process.version} · load average at end ${loadavg().map((x) => x.toFixed(1)).join(" ")} (shared machine; variants alternate round by round) · stories260K, threads 1, median of ${REPS} rounds after one warm-up

| measure | value |
|---|---|
${rows.map(([k, v]) => `| ${k} | ${v} |`).join("\n")}
`;
process.stdout.write(md);
const dir = process.env.CALIBKIT_BENCH_RESULTS;
if (dir) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "serve-model.md"), md);
}
