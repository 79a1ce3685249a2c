// Benchmark: the service's store on both engines (SQLite embedded, PostgreSQL) — durable ingest, restart time
// and evaluate latency under continuous ingestion, at growing profile sizes. Baseline measured in the same
// run: appending the same batches' JSON to a file with one fdatasync each (what the log before the store did).
// Run: npx tsx bench/storage.ts   (sizes: BENCH_STORAGE_SIZES=10000,100000; writes bench/results/storage.md)
import { spawn, type ChildProcess } from "node:child_process";
import { open, mkdtemp, mkdir, writeFile, rm } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { startPostgres } from "../test/store/postgresServer.js";

const REPO = fileURLToPath(new URL("../", import.meta.url));
const SIZES = (process.env.BENCH_STORAGE_SIZES ?? "10000,100000").split(",").map(Number);
const BATCH = 1000;
const WRITERS = 4;
const BACKEND = { provider: "client_evidence", name: "bench-model", access_level: "L1" };

function examples(from: number, n: number) {
  const options = ["A", "B", "C", "D"];
  let s = from + 1;
  const rand = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296);
  return Array.from({ length: n }, (_, i) => {
    const label = options[Math.floor(rand() * 4)]!;
    const raw = options.map((o) => (o === label ? 2 + rand() * 3 : rand()));
    const sum = raw.reduce((a, b) => a + b, 0);
    return { context: `example ${from + i}`, label, metadata: { evidence: { option_probabilities: Object.fromEntries(options.map((o, j) => [o, raw[j]! / sum])) } } };
  });
}

const evaluateBody = JSON.stringify({
  context: "x", backend: BACKEND,
  queries: { q: { type: "set", instructions: "Pick", options: { A: "a", B: "b", C: "c", D: "d" }, calibration_profile: "bench", evidence: { option_probabilities: { A: 0.5, B: 0.25, C: 0.15, D: 0.1 } } } },
});

async function serve(data: string, store: string | undefined): Promise<{ child: ChildProcess; url: string; ms: number }> {
  const t0 = performance.now();
  const args = ["bin/calibkit.js", "serve", "--port", "0", "--data", data, "--config", join(data, "..", "config.json"), ...(store ? ["--store", store] : [])];
  const child = spawn(process.execPath, args, { cwd: REPO, env: { ...process.env, CALIBKIT_FROM_SOURCE: "1" }, stdio: ["ignore", "pipe", "inherit"] });
  const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once("line", resolve));
  return { child, url: line.replace(/^listening /, "") + "/api/v1", ms: performance.now() - t0 };
}

async function post(url: string, body: string): Promise<number> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
  await res.arrayBuffer();
  return res.status;
}

const stop = (child: ChildProcess) => new Promise<void>((resolve) => {
  child.once("exit", () => resolve());
  child.kill("SIGTERM");
});

async function fsyncBaseline(dir: string, batches: string[]): Promise<number> {
  const fh = await open(join(dir, "baseline.jsonl"), "a");
  const t0 = performance.now();
  for (const b of batches) {
    await fh.appendFile(b + "\n");
    await fh.datasync();
  }
  const s = (performance.now() - t0) / 1000;
  await fh.close();
  return (batches.length * BATCH) / s;
}

interface Row { engine: string; n: number; ingest: number; baseline: number; listenMs: number; firstEvalMs: number; p50: number; p99: number; evals: number; statuses: Record<number, number> }

async function measure(engine: string, store: string | undefined, n: number): Promise<Row> {
  const dir = await mkdtemp(join(tmpdir(), "calibkit-bench-store-"));
  await writeFile(join(dir, "config.json"), JSON.stringify({ rate_limit: { requests_per_second: 0, burst: 1 } }));
  const data = join(dir, "data");
  const batches = Array.from({ length: n / BATCH }, (_, i) => JSON.stringify({ examples: examples(i * BATCH, BATCH) }));
  const baseline = await fsyncBaseline(dir, batches);
  let server = await serve(data, store);
  await post(`${server.url}/calibration-profiles`, JSON.stringify({ name: "bench", backend: BACKEND, alpha: 0.1 }));
  // Durable ingest: WRITERS concurrent clients posting 1,000-example batches.
  const t0 = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: WRITERS }, async () => {
    while (next < batches.length) {
      const status = await post(`${server.url}/calibration-profiles/bench/examples`, batches[next++]!);
      if (status !== 200) throw new Error(`ingest answered ${status}`);
    }
  }));
  const ingest = n / ((performance.now() - t0) / 1000);
  await post(`${server.url}/evaluate`, evaluateBody);
  await stop(server.child);
  // Restart: until listening, then until the first evaluate on the profile answers 200.
  server = await serve(data, store);
  const t1 = performance.now();
  for (;;) {
    if ((await post(`${server.url}/evaluate`, evaluateBody)) === 200) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  const firstEvalMs = server.ms + (performance.now() - t1);
  // Evaluate latency while one client ingests 100-example batches without pause: 50 evaluates/s for 4 s.
  let ingesting = true;
  let from = n;
  const writer = (async () => {
    while (ingesting) await post(`${server.url}/calibration-profiles/bench/examples`, JSON.stringify({ examples: examples((from += 100), 100) }));
  })();
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  const start = performance.now();
  const pending: Promise<void>[] = [];
  for (let k = 0; k < 200; k++) {
    const due = start + k * 20;
    await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
    pending.push(post(`${server.url}/evaluate`, evaluateBody).then((s) => {
      statuses[s] = (statuses[s] ?? 0) + 1;
      latencies.push(performance.now() - due);
    }));
  }
  await Promise.all(pending);
  ingesting = false;
  await writer;
  await stop(server.child);
  await rm(dir, { recursive: true, force: true });
  latencies.sort((a, b) => a - b);
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!;
  return { engine, n, ingest, baseline, listenMs: server.ms, firstEvalMs, p50: q(0.5), p99: q(0.99), evals: latencies.length, statuses };
}

async function main(): Promise<void> {
  const pg = startPostgres();
  const rows: Row[] = [];
  try {
    for (const n of SIZES) {
      rows.push(await measure("SQLite", undefined, n));
      rows.push(await measure("PostgreSQL", await pg.database(`bench${n}`), n));
    }
  } finally {
    pg.destroy();
  }
  const f = (x: number, d = 0) => x.toFixed(d);
  const md = `# bench/storage.ts: the store on both engines

- command: \`npx tsx bench/storage.ts\` (sizes ${SIZES.join(", ")}; \`BENCH_STORAGE_SIZES\` changes them)
- date: ${new Date().toISOString()}; CPU: ${cpus()[0]?.model ?? "unknown"}, ${cpus().length} cores; node ${process.version}; load average at the end ${loadavg().map((x) => x.toFixed(2)).join(" / ")}
- ingest: ${WRITERS} concurrent clients POST batches of ${BATCH} examples (every one committed before its 200). Baseline in the same run: the same batches' JSON appended to a file with one fdatasync each (the log before the store).
- restart: a new \`calibkit serve\` process on the same store, until it prints \`listening\`, and until the first evaluate on the profile answers 200 (profiles are read in the background after listening).
- latency under ingestion: 50 evaluates/s for 4 s (open loop, from scheduled time) while a client posts 100-example batches without pause; each evaluate after a batch rebuilds the profile's calibration (the pool scan is incremental, the calibration sort is O(n log n)).

| engine | examples | ingest ex/s | baseline ex/s | ratio | listening ms | first evaluate ms | p50 ms | p99 ms | statuses |
|---|---|---|---|---|---|---|---|---|---|
${rows.map((r) => `| ${r.engine} | ${r.n} | ${f(r.ingest)} | ${f(r.baseline)} | ${f(r.ingest / r.baseline, 2)}× | ${f(r.listenMs)} | ${f(r.firstEvalMs)} | ${f(r.p50, 1)} | ${f(r.p99, 1)} | ${JSON.stringify(r.statuses)} |`).join("\n")}
`;
  await mkdir(join(REPO, "bench/results"), { recursive: true });
  await writeFile(join(REPO, "bench/results/storage.md"), md);
  process.stdout.write(md);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench/storage.ts: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exitCode = 1;
});
