// bench/results/service.md from the measurements of bench/service.ts: one table per figure the issue names,
// each beside its same-run baseline, and the goals checked at the largest size measured.
import { cpus } from "node:os";
import { CONNECTIONS, type LoadResult } from "./_load.js";
import { evaluateBodyFor, type IngestResult } from "./_workload.js";

export type EngineName = "sqlite" | "postgres";
export type Measured = LoadResult & { cpuMsPerRequest?: number };

export interface SizeResult {
  engine: EngineName;
  n: number;
  ingest: IngestResult;
  /** Examples/s of fdatasync'ed appends of the same batches. */
  ingestBaseline: number;
  /** After a crash (SIGKILL) straight after the ingestion, then after a clean stop (SIGTERM). */
  restarts: Restart[];
  peaks: { echo: Measured[]; service: Measured[] };
  half: { echo: LoadResult[]; service: LoadResult[] };
  steal: number | undefined;
  live: { load: LoadResult; writer: IngestResult; echo: LoadResult; nAfter: number };
}

export interface Restart {
  /** How the previous process was stopped: a crash, or a clean stop. */
  signal: "SIGKILL" | "SIGTERM";
  listenMs: number;
  firstEvalMs: number;
  /** A bare process's start until listening, just before. */
  processMs: number;
  /** Answers to the evaluates polled until the first 200. */
  polls: Record<string, number>;
}

export interface Settings {
  sizes: number[]; engines: EngineName[]; fromSource: boolean; rounds: number; warmupMs: number; measureMs: number; settleMs: number;
  writers: number; batch: number; liveRate: number; liveBatch: number; liveMeasureMs: number;
}

interface RunInfo {
  settings: Settings;
  /** The commit measured (and whether the working tree differed from it). */
  code: string;
  startedAt: Date;
  loadBefore: number[];
  loadAfter: number[];
}

const f = (x: number | undefined, d = 0) => (x === undefined || Number.isNaN(x) ? "–" : x.toFixed(d));
const ENGINE: Record<EngineName, string> = { sqlite: "SQLite", postgres: "PostgreSQL" };
const median = <T>(runs: T[], key: (r: T) => number): T => [...runs].sort((a, b) => key(a) - key(b))[Math.floor(runs.length / 2)]!;
const medianOf = (values: (number | undefined)[]) => {
  const v = values.filter((x): x is number => x !== undefined).sort((a, b) => a - b);
  return v.length ? v[Math.floor(v.length / 2)] : undefined;
};
const failures = (r: LoadResult) => r.errors + Object.entries(r.statuses).filter(([s]) => s !== "200").reduce((a, [, c]) => a + c, 0);
const statuses = (s: Record<string, number>) => Object.entries(s).map(([k, v]) => `${k}×${v}`).join(" ");
const met = (ok: boolean) => (ok ? "met" : "**not met**");

function goals(rows: SizeResult[]): string {
  return rows.map((r) => {
    const ratio = median(r.peaks.service, (x) => x.rps).rps / median(r.peaks.echo, (x) => x.rps).rps;
    const big = r.n >= 1_000_000;
    const slowest = Math.max(...r.restarts.map((x) => x.firstEvalMs));
    return `| ${ENGINE[r.engine]} | ${r.n} | ${f(ratio, 2)}× (${met(ratio >= 0.5)}) | ${r.restarts.map((x) => f(x.firstEvalMs)).join(" / ")} ms${big ? ` (${met(slowest <= 2000)})` : ""} | ${f(r.live.load.p99, 1)} ms, ${failures(r.live.load)} failed${big ? ` (${met(r.live.load.p99 <= 50 && failures(r.live.load) === 0)})` : ""} |`;
  }).join("\n");
}

function throughput(rows: SizeResult[]): string {
  return rows.map((r) => {
    const s = median(r.peaks.service, (x) => x.rps);
    const e = median(r.peaks.echo, (x) => x.rps);
    const rounds = r.peaks.service.map((x, i) => f(x.rps / r.peaks.echo[i]!.rps, 2)).join(", ");
    const sCpu = medianOf(r.peaks.service.map((x) => x.cpuMsPerRequest));
    const eCpu = medianOf(r.peaks.echo.map((x) => x.cpuMsPerRequest));
    const hs = median(r.half.service, (x) => x.p99);
    const he = median(r.half.echo, (x) => x.p99);
    return `| ${ENGINE[r.engine]} | ${r.n} | ${f(s.rps)} | ${f(e.rps)} | **${f(s.rps / e.rps, 2)}×** (${rounds}) | ${f(sCpu, 3)} / ${f(eCpu, 3)} → ${sCpu && eCpu ? f(eCpu / sCpu, 2) : "–"}× | ${f(hs.p99, 2)} / ${f(he.p99, 2)} | ${statuses(s.statuses)} | ${r.steal === undefined ? "–" : f(r.steal * 100, 1) + "%"} |`;
  }).join("\n");
}

function ingestRows(rows: SizeResult[], s: Settings): string {
  return rows.map((r) => {
    const start = r.n - r.ingest.examples;
    const rate = r.ingest.examples / r.ingest.seconds;
    return `| ${ENGINE[r.engine]} | ${start} → ${r.n} | ${s.writers} × ${s.batch} | **${f(rate)}** | ${f(r.ingestBaseline)} | ${f(rate / r.ingestBaseline, 2)}× | ${statuses(r.ingest.statuses)} |`;
  }).join("\n");
}

function restartRows(rows: SizeResult[]): string {
  return rows.flatMap((r) => r.restarts.map((x) =>
    `| ${ENGINE[r.engine]} | ${r.n} | ${x.signal === "SIGKILL" ? "kill -9" : "SIGTERM"} | ${f(x.listenMs)} | **${f(x.firstEvalMs)}** | ${f(x.processMs)} | ${statuses(x.polls)} |`)).join("\n");
}

function liveRows(rows: SizeResult[]): string {
  return rows.map((r) => {
    const l = r.live.load;
    const w = r.live.writer;
    return `| ${ENGINE[r.engine]} | ${r.n} → ${r.live.nAfter} | ${f(l.p50, 1)} | **${f(l.p99, 1)}** | ${f(l.max, 0)} | ${failures(l)} of ${l.requests + l.errors} (${statuses(l.statuses)}${l.errors ? ` errors×${l.errors}` : ""}) | ${f(w.examples / w.seconds)} (${statuses(w.statuses)}) | ${f(r.live.echo.p99, 1)} |`;
  }).join("\n");
}

export function render(rows: SizeResult[], run: RunInfo): string {
  const s = run.settings;
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(" / ");
  return `## bench/service.ts: the evaluation service on SQLite and PostgreSQL

- command: \`npx tsx bench/service.ts\` (sizes ${s.sizes.join(", ")}; engines ${s.engines.join(", ")}; \`BENCH_SIZES\`, \`BENCH_ENGINES\`, \`BENCH_ROUNDS\` change them)
- date: ${run.startedAt.toISOString()} to ${new Date().toISOString()}; CPU: ${cpus()[0]?.model.trim() ?? "unknown"}, ${cpus().length} cores; node ${process.version}
- code measured: ${run.code}
- machine load average (1/5/15 min): ${load(run.loadBefore)} at the start, ${load(run.loadAfter)} at the end (other work shares the ${cpus().length} cores; figures are best read as ratios to their same-run baselines)
- one \`calibkit serve\` process per engine, ${s.fromSource ? "from source through tsx (BENCH_FROM_SOURCE=1)" : "compiled (the bench runs \`npm run build\` first), as an installed calibkit runs"}, one profile per size, \`bench-SIZE\` (client_evidence, LAC, alpha 0.1), created and grown from 0 to its size in turn, so the store also holds the smaller sizes' profiles (and what their continuous ingestion added) when a larger one is measured; PostgreSQL is a real server started for the run (initdb + pg_ctl on a unix socket, as the tests start it: test/store/postgresServer.ts)
- evaluate: 4 set queries over 4 options with client evidence, ${(Buffer.byteLength(evaluateBodyFor("bench-1000000")) / 1024).toFixed(1)} KiB; load from a separate process over loopback (raw-socket HTTP/1.1, ${CONNECTIONS} keep-alive connections), ${s.warmupMs} ms warm-up then ${s.measureMs} ms measured per run; echo baseline: a bare node:http server that parses the same body and sends it back as JSON, measured alternately with the service (${s.rounds} rounds each)

### Goals (issue 12)

| engine | examples | evaluate throughput / echo (goal ≥ 0.5×) | restart until the first evaluate answers 200, after kill -9 / SIGTERM (goal ≤ 2 s at 1M) | p99 evaluate under continuous ingestion (goal ≤ 50 ms, no failures, at 1M) |
|---|---|---|---|---|
${goals(rows)}

### Evaluate throughput

Peak: closed loop, median of ${s.rounds} runs alternating with the echo server, after ${s.settleMs / 1000} s of unmeasured closed-loop load on each (the service has just been restarted, and a process runs its first seconds JIT-cold). CPU per request from /proc (server CPU time over the run / requests answered; one core each, so the CPU ratio is a capacity ratio less sensitive to other work on the machine). Half peak: open loop at half each server's own peak, latency from each request's scheduled time, median p99 of ${s.rounds}.

| engine | examples | service req/s | echo req/s | ratio (per round) | CPU ms/request service / echo → capacity ratio | p99 ms at half peak, service / echo | statuses at peak | steal |
|---|---|---|---|---|---|---|---|---|
${throughput(rows)}

### Durable ingest

${s.writers} concurrent clients POST batches of ${s.batch} examples (each with an Idempotency-Key; every batch committed in one transaction before its 200; a 503/529 would be retried after its retry-after and is counted). Baseline in the same run: the same batches' JSON appended to a file with one fdatasync each (up to 40 batches; what the log before the store paid for durability).

| engine | examples | clients × batch | ingest examples/s | fdatasync append examples/s | ratio | statuses |
|---|---|---|---|---|---|---|
${ingestRows(rows, s)}

### Restart

The service is stopped — first by a crash (kill -9) straight after the ingestion, then cleanly (SIGTERM) — and each time a new \`calibkit serve\` process started on the same store: time until it prints \`listening\`, and until the first evaluate on the profile answers 200 (polled every 10 ms; a 503 \`profile_loading\` while the profile is being read). Baseline: a bare node:http process ${s.fromSource ? "started through the same loader (tsx)" : "(plain JavaScript)"} until it prints \`listening\`, just before.

| engine | examples | stopped by | listening ms | first evaluate 200 ms | bare process start ms | poll answers |
|---|---|---|---|---|---|---|
${restartRows(rows)}

### Evaluate latency under continuous ingestion

Open-loop evaluates at ${s.liveRate}/s for ${s.liveMeasureMs / 1000} s (after ${s.warmupMs} ms warm-up; latency from each request's scheduled time) while another client posts batches of ${s.liveBatch} examples without pause; any answer but 200 (a 529 shed, a 503) counts as a failure. Baseline: the echo server at the same rate, just after. The profile grows during the run (examples column: before → after), and an evaluate after it checks that n counts every acknowledged example.

| engine | examples | p50 ms | p99 ms | max ms | failures (statuses) | ingest during, examples/s (statuses) | echo p99 ms at the same rate |
|---|---|---|---|---|---|---|---|
${liveRows(rows)}
`;
}
