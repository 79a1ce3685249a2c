// Benchmark: the evaluation service on both store engines (SQLite embedded, a real PostgreSQL) at growing profile
// sizes, against baselines measured in the same run: POST /evaluate throughput and latency against a bare
// node:http JSON echo server, durable ingest against fdatasync'ed appends of the same batches, restart against
// the start of a bare process, and evaluate latency under continuous ingestion against the echo server at the
// same rate.
// Run: npx tsx bench/service.ts   (writes bench/results/service.md)
//   BENCH_SIZES=10000,100000,1000000   profile sizes, in order (the profile grows from one to the next)
//   BENCH_ENGINES=sqlite,postgres      engines, in order
//   BENCH_ROUNDS=3                     alternating echo / service rounds per throughput row
//   BENCH_FROM_SOURCE=1                run calibkit from src/ through tsx instead of building dist/ first
//   BENCH_WARMUP_MS=1500 BENCH_MEASURE_MS=5000 BENCH_LIVE_MS=10000   per load run (the last under ingestion)
import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile, mkdir } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startPostgres, type PostgresServer } from "../test/store/postgresServer.js";
import { runLoad, type LoadResult } from "./_load.js";
import { build, cpuSeconds, machineTicks, startEcho, startServe, stop, type Started } from "./_processes.js";
import { render, type EngineName, type Measured, type Restart, type SizeResult } from "./_serviceReport.js";
import { BACKEND, continuousIngest, evaluateBodyFor, fsyncBaseline, ingest, post } from "./_workload.js";

const REPO = fileURLToPath(new URL("../", import.meta.url));
const env = (name: string, fallback: string) => process.env[name] ?? fallback;
const SETTINGS = {
  sizes: env("BENCH_SIZES", "10000,100000,1000000").split(",").map(Number),
  engines: env("BENCH_ENGINES", "sqlite,postgres").split(",") as EngineName[],
  fromSource: env("BENCH_FROM_SOURCE", "") === "1",
  rounds: Number(env("BENCH_ROUNDS", "3")),
  warmupMs: Number(env("BENCH_WARMUP_MS", "1500")),
  measureMs: Number(env("BENCH_MEASURE_MS", "5000")),
  /** Unmeasured closed-loop load on each server before the throughput rounds (after the restarts). */
  settleMs: Number(env("BENCH_SETTLE_MS", "15000")),
  /** Durable ingest: concurrent clients, examples per batch. */
  writers: 4,
  batch: 5000,
  /** Under continuous ingestion: open-loop evaluates per second, one client's batch size, seconds measured. */
  liveRate: 200,
  liveBatch: 1000,
  liveMeasureMs: Number(env("BENCH_LIVE_MS", "10000")),
};

/** A load run plus the server's CPU time per answered request. */
async function measured(target: Started, path: string, rate: number, evaluateBody: string): Promise<Measured> {
  const before = await cpuSeconds(target.child.pid);
  const result = await runLoad({ url: target.url, path, body: evaluateBody, rate, warmupMs: SETTINGS.warmupMs, measureMs: SETTINGS.measureMs });
  const after = await cpuSeconds(target.child.pid);
  // Warm-up requests are served too but not counted: scale by the measured share of the run.
  const served = (result.requests * (SETTINGS.warmupMs + SETTINGS.measureMs)) / SETTINGS.measureMs;
  return before === undefined || after === undefined ? result : { ...result, cpuMsPerRequest: ((after - before) * 1000) / served };
}

async function evaluateN(api: string, evaluateBody: string): Promise<{ status: number; n?: number }> {
  const res = await post(`${api}/evaluate`, evaluateBody);
  if (res.status !== 200) return { status: res.status };
  return { status: 200, n: (JSON.parse(res.text) as { answers: { topic: { guarantee: { n: number } } } }).answers.topic.guarantee.n };
}

/** Stops the service and starts a new process on the same store: until `listening`, and until an evaluate answers 200. */
async function restart(old: Started, start: () => Promise<Started>, signal: "SIGTERM" | "SIGKILL", evaluateBody: string): Promise<Restart & { service: Started }> {
  const bare = await startEcho(SETTINGS.fromSource); // the start of a bare process through the same loader, just before
  await stop(bare.child);
  await stop(old.child, signal);
  const t0 = performance.now();
  const service = await start();
  const polls: Record<string, number> = {};
  for (;;) {
    const { status } = await evaluateN(`${service.url}/api/v1`, evaluateBody);
    polls[status] = (polls[status] ?? 0) + 1;
    if (status === 200) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  return { service, signal, listenMs: service.listenMs, firstEvalMs: performance.now() - t0, processMs: bare.listenMs, polls };
}

async function runEngine(engine: EngineName, echo: Started, pg: () => PostgresServer): Promise<SizeResult[]> {
  const dir = await mkdtemp(join(tmpdir(), `calibkit-bench-${engine}-`));
  const configFile = join(dir, "config.json");
  await writeFile(configFile, JSON.stringify({ rate_limit: { requests_per_second: 0, burst: 1 } }));
  const store = engine === "postgres" ? await pg().database("bench") : undefined;
  const start = () => startServe(join(dir, "data"), configFile, store, SETTINGS.fromSource);
  let service = await start();
  const results: SizeResult[] = [];
  try {
    for (const size of SETTINGS.sizes) {
      // Each size has a profile of its own: the continuous ingestion at one size writes past the next size.
      const profile = `bench-${size}`;
      const evaluateBody = evaluateBodyFor(profile);
      const created = await post(`${service.url}/api/v1/calibration-profiles`, JSON.stringify({ name: profile, backend: BACKEND, alpha: 0.1, method: "LAC" }));
      if (created.status >= 300) throw new Error(`create profile: ${created.status} ${created.text}`);
      let n = 0;
      process.stderr.write(`bench/service: ${engine}: ingesting ${n} → ${size} into ${profile}\n`);
      const baselineBatches = Math.max(1, Math.min(40, Math.floor((size - n) / SETTINGS.batch)));
      const ingestBaseline = await fsyncBaseline(join(dir, "baseline.jsonl"), n, SETTINGS.batch, baselineBatches);
      const ingested = await ingest(`${service.url}/api/v1`, profile, n, size, SETTINGS.batch, SETTINGS.writers);
      n = size;
      const check = await evaluateN(`${service.url}/api/v1`, evaluateBody);
      if (check.n !== n) throw new Error(`after ingesting ${n} examples the evaluate answered ${check.status} with n = ${check.n}`);

      process.stderr.write(`bench/service: ${engine} @ ${n}: restart\n`);
      const restarts: Restart[] = [];
      // A crash straight after the ingestion first (nothing written at a clean stop helps it), then a clean stop.
      for (const signal of ["SIGKILL", "SIGTERM"] as const) {
        const { service: next, ...measuredRestart } = await restart(service, start, signal, evaluateBody);
        service = next;
        restarts.push(measuredRestart);
      }

      process.stderr.write(`bench/service: ${engine} @ ${n}: throughput\n`);
      // The service has just been restarted: its first seconds run JIT-cold and finish reading the other profiles
      // (on the SQLite store at 1M, CPU per request fell from 0.17 to 0.11 ms over the first 20 s). Throughput is
      // a steady-state figure, the restart has its own; both servers get the same unmeasured load first.
      for (const target of [echo, service]) await runLoad({ url: target.url, path: target === echo ? "/" : "/api/v1/evaluate", body: evaluateBody, rate: 0, warmupMs: 0, measureMs: SETTINGS.settleMs });
      const ticksBefore = await machineTicks();
      const peaks = { echo: [] as Measured[], service: [] as Measured[] };
      for (let round = 0; round < SETTINGS.rounds; round++) {
        peaks.echo.push(await measured(echo, "/", 0, evaluateBody));
        peaks.service.push(await measured(service, "/api/v1/evaluate", 0, evaluateBody));
      }
      const medianRps = (runs: LoadResult[]) => [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)]!.rps;
      const half = { echo: [] as LoadResult[], service: [] as LoadResult[] };
      for (let round = 0; round < SETTINGS.rounds; round++) {
        half.echo.push(await measured(echo, "/", medianRps(peaks.echo) / 2, evaluateBody));
        half.service.push(await measured(service, "/api/v1/evaluate", medianRps(peaks.service) / 2, evaluateBody));
      }
      const ticksAfter = await machineTicks();

      process.stderr.write(`bench/service: ${engine} @ ${n}: latency under continuous ingestion\n`);
      const writer = continuousIngest(`${service.url}/api/v1`, profile, n, SETTINGS.liveBatch);
      const live = await runLoad({ url: service.url, path: "/api/v1/evaluate", body: evaluateBody, rate: SETTINGS.liveRate, warmupMs: SETTINGS.warmupMs, measureMs: SETTINGS.liveMeasureMs });
      const written = await writer.stop();
      const liveEcho = await runLoad({ url: echo.url, path: "/", body: evaluateBody, rate: SETTINGS.liveRate, warmupMs: SETTINGS.warmupMs, measureMs: SETTINGS.liveMeasureMs });
      const measuredN = n;
      n = written.next;
      const after = await evaluateN(`${service.url}/api/v1`, evaluateBody);
      if (after.n !== n) throw new Error(`after continuous ingestion to ${n} examples the evaluate answered ${after.status} with n = ${after.n}`);
      results.push({
        engine, n: measuredN, ingest: ingested, ingestBaseline,
        restarts,
        peaks, half, steal: ticksBefore && ticksAfter && ticksAfter.total > ticksBefore.total ? (ticksAfter.steal - ticksBefore.steal) / (ticksAfter.total - ticksBefore.total) : undefined,
        live: { load: live, writer: written, echo: liveEcho, nAfter: n },
      });
      process.stderr.write(`bench/service: ${engine} @ ${measuredN}: done (load average ${loadavg()[0]!.toFixed(2)})\n`);
    }
  } catch (err) {
    process.stderr.write(`bench/service: ${engine}: the service's last stderr:\n${service.stderrTail()}\n`);
    throw err;
  } finally {
    await stop(service.child);
    await rm(dir, { recursive: true, force: true });
  }
  return results;
}

function commitMeasured(): string {
  const git = (...args: string[]) => spawnSync("git", args, { cwd: REPO, encoding: "utf8" }).stdout.trim();
  const head = git("log", "-1", "--format=%h %s");
  const dirty = git("status", "--porcelain", "--untracked-files=no", "--", "src") !== "";
  return head ? `\`${head.slice(0, 110)}${head.length > 110 ? "…" : ""}\`${dirty ? " with uncommitted changes in src/" : ""}` : "unknown (no git)";
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const code = commitMeasured();
  if (!SETTINGS.fromSource) build();
  const loadBefore = loadavg();
  const echo = await startEcho(SETTINGS.fromSource);
  let pg: PostgresServer | undefined;
  const results: SizeResult[] = [];
  try {
    for (const engine of SETTINGS.engines) results.push(...(await runEngine(engine, echo, () => (pg ??= startPostgres()))));
  } finally {
    await stop(echo.child);
    pg?.destroy();
  }
  const md = render(results, { settings: SETTINGS, code, startedAt, loadBefore, loadAfter: loadavg() });
  await mkdir(join(REPO, "bench/results"), { recursive: true });
  await writeFile(join(REPO, "bench/results/service.md"), md);
  process.stdout.write(md);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench/service.ts: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exitCode = 1;
});
