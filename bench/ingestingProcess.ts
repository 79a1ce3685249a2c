// Benchmark: evaluate latency under continuous ingestion in a long-running `calibkit serve` process that ingested
// the whole profile itself (bench/service.ts measures it after restarts, which start from a checkpoint and hold
// no old examples): one process per engine ingests N examples (4 clients × batches of 5,000), then open-loop
// evaluates at 200/s for 10 s while one client posts batches of 1,000 without pause — as bench/service.ts's live
// run — with the process's garbage-collection pauses from --trace-gc over the measured window. Baseline in the
// same run: the echo server at the same rate.
// Run: npx tsx bench/ingestingProcess.ts   (writes bench/results/ingestingProcess.md)
//   BENCH_N=1000000  BENCH_ENGINES=sqlite,postgres  BENCH_FROM_SOURCE=1 (through tsx instead of dist/)
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { startPostgres, type PostgresServer } from "../test/store/postgresServer.js";
import { runLoad, type LoadResult } from "./_load.js";
import { build, startEcho, startServe, stop, type Started } from "./_processes.js";
import { BACKEND, continuousIngest, evaluateBodyFor, ingest, post, type IngestResult } from "./_workload.js";

const REPO = fileURLToPath(new URL("../", import.meta.url));
const N = Number(process.env.BENCH_N ?? 1_000_000);
const ENGINES = (process.env.BENCH_ENGINES ?? "sqlite,postgres").split(",");
const FROM_SOURCE = process.env.BENCH_FROM_SOURCE === "1";
const RATE = 200;
const WARMUP_MS = 1500;
const MEASURE_MS = 10_000;

interface Pause { at: number; ms: number; kind: string }

/** `calibkit serve` with --trace-gc: its pauses are read from stdout as they are printed. */
async function startTraced(data: string, config: string, store: string | undefined): Promise<Started & { pauses: Pause[] }> {
  const serve = await startServe(data, config, store, FROM_SOURCE, ["--trace-gc"]);
  const pauses: Pause[] = [];
  createInterface({ input: serve.child.stdout! }).on("line", (line) => {
    // [pid:0x…]   1234 ms: Scavenge 12.3 (14.5) -> 11.2 (15.0) MB, 1.23 / 0.00 ms  …
    const gc = /\]\s+([\d.]+) ms: (\S+)[^,]*, ([\d.]+) \/ [\d.]+ ms/.exec(line);
    if (gc) pauses.push({ at: Number(gc[1]), kind: gc[2]!, ms: Number(gc[3]) });
  });
  return { ...serve, pauses };
}

interface Result {
  engine: string; ingest: IngestResult; live: LoadResult; writer: IngestResult; echo: LoadResult;
  young: number[]; full: number[]; nAfter: number; load: number;
}

async function runEngine(engine: string, pg: () => PostgresServer): Promise<Result> {
  const dir = await mkdtemp(join(tmpdir(), `calibkit-bench-ingesting-${engine}-`));
  const config = join(dir, "config.json");
  await writeFile(config, JSON.stringify({ rate_limit: { requests_per_second: 0, burst: 1 } }));
  const store = engine === "postgres" ? await pg().database("ingesting") : undefined;
  const serve = await startTraced(join(dir, "data"), config, store);
  try {
    const api = `${serve.url}/api/v1`;
    const created = await post(`${api}/calibration-profiles`, JSON.stringify({ name: "p", backend: BACKEND, alpha: 0.1, method: "LAC" }));
    if (created.status >= 300) throw new Error(`create profile: ${created.status} ${created.text}`);
    const body = evaluateBodyFor("p");
    process.stderr.write(`bench/ingestingProcess: ${engine}: ingesting ${N}\n`);
    const ingested = await ingest(api, "p", 0, N, 5000, 4);
    // A few seconds of evaluates first, as bench/service.ts's throughput rounds come before its live run.
    await runLoad({ url: serve.url, path: "/api/v1/evaluate", body, rate: RATE, warmupMs: 0, measureMs: 3000 });
    process.stderr.write(`bench/ingestingProcess: ${engine} @ ${N}: latency under continuous ingestion\n`);
    const writer = continuousIngest(api, "p", N, 1000);
    const from = serve.pauses.length;
    const live = await runLoad({ url: serve.url, path: "/api/v1/evaluate", body, rate: RATE, warmupMs: WARMUP_MS, measureMs: MEASURE_MS });
    const written = await writer.stop();
    const pauses = serve.pauses.slice(from);
    const echoServer = await startEcho(FROM_SOURCE);
    const echo = await runLoad({ url: echoServer.url, path: "/", body, rate: RATE, warmupMs: WARMUP_MS, measureMs: MEASURE_MS });
    await stop(echoServer.child);
    const check = await post(`${api}/evaluate`, body);
    const nAfter = check.status === 200 ? (JSON.parse(check.text) as { answers: { topic: { guarantee: { n: number } } } }).answers.topic.guarantee.n : -1;
    if (nAfter !== written.next) throw new Error(`after the run the evaluate answered ${check.status} with n = ${nAfter}, ${written.next} acknowledged`);
    const sorted = (kind: string) => pauses.filter((p) => p.kind.startsWith(kind)).map((p) => p.ms).sort((a, b) => b - a);
    return { engine, ingest: ingested, live, writer: written, echo, young: sorted("Scavenge"), full: sorted("Mark"), nAfter, load: loadavg()[0]! };
  } finally {
    await stop(serve.child);
    await rm(dir, { recursive: true, force: true });
  }
}

const f = (x: number, d = 1) => x.toFixed(d);
const failed = (r: LoadResult) => r.errors + Object.entries(r.statuses).filter(([s]) => s !== "200").reduce((a, [, c]) => a + c, 0);
const pauses = (xs: number[]) => (xs.length === 0 ? "none" : `${xs.length}, longest ${xs.slice(0, 3).map((x) => f(x)).join(" / ")}`);

function render(results: Result[], startedAt: Date, loadBefore: number[]): string {
  const name = { sqlite: "SQLite", postgres: "PostgreSQL" } as Record<string, string>;
  return [
    "## bench/ingestingProcess.ts: evaluate latency under continuous ingestion in a process that ingested the profile itself",
    "",
    `- command: \`npx tsx bench/ingestingProcess.ts\` (${N} examples; engines ${ENGINES.join(", ")}; \`BENCH_N\`, \`BENCH_ENGINES\` change them)`,
    `- date: ${startedAt.toISOString()}; CPU: ${cpus()[0]?.model.trim()}, ${cpus().length} cores; node ${process.version}; ${FROM_SOURCE ? "from source (tsx)" : "compiled"}`,
    `- machine load average (1 min): ${f(loadBefore[0]!, 2)} at the start, ${results.map((r) => `${f(r.load, 2)} after ${name[r.engine]}`).join(", ")} (other work shares the cores: read the p99 beside the echo's)`,
    `- one \`calibkit serve\` process per engine ingests ${N} examples itself (4 clients × batches of 5,000, each committed before its 200), answers 3 s of evaluates, then open-loop evaluates (4 set queries, as bench/service.ts) at ${RATE}/s for ${MEASURE_MS / 1000} s after ${WARMUP_MS} ms of warm-up while one client posts batches of 1,000 without pause; bench/service.ts measures the same after two restarts, whose process holds none of the examples before its checkpoint. Garbage-collection pauses of the service process from \`--trace-gc\` over the warm-up and measured window. Baseline: the echo server at the same rate, just after.`,
    "",
    "| engine | examples | ingest examples/s | p50 ms | p99 ms (goal ≤ 50) | max ms | failures | ingest during, examples/s | echo p99 ms | young-generation pauses (ms) | full pauses (ms) |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
    ...results.map((r) => `| ${name[r.engine]} | ${N} → ${r.nAfter} | ${f(r.ingest.examples / r.ingest.seconds, 0)} | ${f(r.live.p50)} | **${f(r.live.p99)}** | ${f(r.live.max, 0)} | ${failed(r.live)} of ${r.live.requests} | ${f(r.writer.examples / r.writer.seconds, 0)} | ${f(r.echo.p99)} | ${pauses(r.young)} | ${pauses(r.full)} |`),
    "",
  ].join("\n");
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const loadBefore = loadavg();
  if (!FROM_SOURCE) build();
  let pg: PostgresServer | undefined;
  const results: Result[] = [];
  try {
    for (const engine of ENGINES) results.push(await runEngine(engine, () => (pg ??= startPostgres())));
  } finally {
    pg?.destroy();
  }
  const md = render(results, startedAt, loadBefore);
  const out = process.env.CALIBKIT_BENCH_RESULTS ?? join(REPO, "bench/results");
  await mkdir(out, { recursive: true });
  await writeFile(join(out, "ingestingProcess.md"), md);
  process.stdout.write(md);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench/ingestingProcess.ts: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exitCode = 1;
});
