// Benchmark: POST /evaluate (client_evidence, 4 set queries, a profile of 10,000 examples) on loopback, load
// from a separate process, against a bare node:http JSON echo server measured in the same run.
// Run: npx tsx bench/service.ts   (writes bench/results/service.md)
import { fork, spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, writeFile, mkdir } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { createServer } from "node:http";
import { connect, type Socket } from "node:net";
import { fileURLToPath } from "node:url";

const SELF = fileURLToPath(import.meta.url);
const REPO = fileURLToPath(new URL("../", import.meta.url));
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 1500);
const MEASURE_MS = Number(process.env.BENCH_MEASURE_MS ?? 5000);
const CONNECTIONS = 32;
/** An open-loop send this much after its scheduled time means the generator, not the server, was held up. */
const LATE_SEND_MS = 1;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

// ---------- roles run in child processes ----------

/** The baseline: read the body, parse it, send it back as JSON. */
function echoServer(): void {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const out = JSON.stringify(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(out) });
      res.end(out);
    });
  });
  server.listen(0, "127.0.0.1", () => {
    const { port } = server.address() as { port: number };
    process.stdout.write(`listening http://127.0.0.1:${port}\n`);
  });
}

/**
 * A minimal HTTP/1.1 keep-alive client over raw sockets: one request in flight per connection, the request bytes
 * built once, a response read up to its content-length. An undici Pool spent about twice the echo server's CPU per
 * request, so on this 2-core machine the generator, not the echo server, set the echo "peak" and flattered the
 * ratio; this one costs a fraction of either server, and both targets get the same generator. Callbacks rather
 * than promises, and latencies in preallocated typed arrays: the generator's own garbage collections would
 * otherwise delay its sends, and that delay is counted as the server's latency.
 */
class RawClient {
  private readonly idle: Conn[] = [];
  private readonly waiting: ((conn: Conn) => void)[] = [];
  private readonly conns: Conn[] = [];

  constructor(url: string, private readonly request: Buffer, connections: number) {
    const { hostname, port } = new URL(url);
    for (let i = 0; i < connections; i++) {
      const conn = new Conn(hostname, Number(port));
      this.conns.push(conn);
      this.idle.push(conn);
    }
  }

  /** Sends the request on a free connection (waiting for one if none is); `done` gets the status, 0 on failure. */
  send(done: (status: number) => void): void {
    const conn = this.idle.pop();
    if (conn) this.exchange(conn, done);
    else this.waiting.push((free) => this.exchange(free, done));
  }

  private exchange(conn: Conn, done: (status: number) => void): void {
    conn.exchange(this.request, (status) => {
      const next = this.waiting.shift();
      if (next) next(conn);
      else this.idle.push(conn);
      done(status);
    });
  }

  close(): void {
    for (const c of this.conns) c.close();
  }
}

class Conn {
  private socket: Socket | undefined;
  private chunks: Buffer[] = [];
  private size = 0;
  private headerEnd = -1;
  private expected = -1;
  private status = 0;
  private done: ((status: number) => void) | undefined;

  constructor(private readonly host: string, private readonly port: number) {}

  private open(): Socket {
    const socket = connect({ host: this.host, port: this.port, noDelay: true });
    socket.on("data", (chunk: Buffer) => this.onData(chunk));
    const fail = () => {
      if (this.socket === socket) this.socket = undefined;
      this.finish(0);
    };
    socket.on("error", fail);
    socket.on("close", fail);
    return socket;
  }

  exchange(request: Buffer, done: (status: number) => void): void {
    this.socket ??= this.open();
    this.done = done;
    this.socket.write(request);
  }

  private onData(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    if (this.headerEnd < 0) {
      const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
      this.chunks = [all];
      const end = all.indexOf("\r\n\r\n");
      if (end < 0) return;
      this.headerEnd = end + 4;
      const head = all.toString("latin1", 0, end);
      this.status = Number(head.slice(9, 12));
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
      if (!length) throw new Error(`response without content-length: ${head}`);
      this.expected = this.headerEnd + Number(length[1]);
    }
    if (this.size >= this.expected) {
      if (this.size > this.expected) throw new Error("more bytes than one response (nothing is pipelined)");
      this.finish(this.status);
    }
  }

  private finish(status: number): void {
    this.chunks = [];
    this.size = 0;
    this.headerEnd = -1;
    this.expected = -1;
    const done = this.done;
    this.done = undefined;
    done?.(status);
  }

  close(): void {
    this.socket?.destroy();
  }
}

interface LoadResult {
  requests: number; seconds: number; rps: number; p50: number; p99: number; errors: number; statuses: Record<string, number>;
  /** CPU the load process used over the run, as a share of one core: near 1 means the generator was the limit. */
  loadCpuShare: number;
  /** Open loop: requests the generator itself sent over 1 ms after their scheduled time (it had lost the CPU). */
  lateSends: number;
  /** Open loop: p99 of the requests the generator sent on time, which its own stalls did not delay. */
  p99OnTime: number;
}

/** Latencies in typed-array blocks: no large array to copy as it grows, nothing boxed. */
class Latencies {
  private readonly blocks: Float64Array[] = [];
  private used = 0;
  private static readonly BLOCK = 1 << 16;

  push(ms: number): void {
    if (this.used % Latencies.BLOCK === 0) this.blocks.push(new Float64Array(Latencies.BLOCK));
    this.blocks[this.blocks.length - 1]![this.used % Latencies.BLOCK] = ms;
    this.used++;
  }

  sorted(): Float64Array {
    const all = new Float64Array(this.used);
    this.blocks.forEach((block, i) => all.set(block.subarray(0, Math.min(Latencies.BLOCK, this.used - i * Latencies.BLOCK)), i * Latencies.BLOCK));
    return all.sort();
  }
}

function percentile(sorted: Float64Array, q: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : NaN;
}

/** Closed loop (rate 0: as fast as CONNECTIONS workers go) or open loop at `rate` req/s (latency from the scheduled time). */
async function load(url: string, path: string, body: string, rate: number): Promise<LoadResult> {
  const { host } = new URL(url);
  const request = Buffer.from(
    `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  const client = new RawClient(url, request, CONNECTIONS);
  const latencies = new Latencies();
  const onTime = new Latencies();
  let lateSends = 0;
  const statuses: Record<string, number> = {};
  let errors = 0;
  let inflight = 0;
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const measureFrom = start + WARMUP_MS;
  const end = measureFrom + MEASURE_MS;
  /** Sends one request scheduled at `scheduled`; `then` runs once it is answered. */
  const one = (scheduled: number, then?: () => void) => {
    inflight++;
    const late = performance.now() - scheduled > LATE_SEND_MS;
    if (late && scheduled >= measureFrom) lateSends++;
    client.send((status) => {
      inflight--;
      if (scheduled >= measureFrom) {
        if (status === 0) errors++;
        else {
          statuses[status] = (statuses[status] ?? 0) + 1;
          const ms = performance.now() - scheduled;
          latencies.push(ms);
          if (!late) onTime.push(ms);
        }
      }
      then?.();
    });
  };
  if (rate <= 0) {
    await new Promise<void>((allDone) => {
      let running = CONNECTIONS;
      const next = () => {
        const t = performance.now();
        if (t < end) one(t, next);
        else if (--running === 0) allDone();
      };
      for (let i = 0; i < CONNECTIONS; i++) next();
    });
  } else {
    // Open loop: send every request whose scheduled time has come, then yield to the event loop (which reads the
    // answers) and look again. Latency counts from the scheduled time, so a server that falls behind cannot hide
    // its queue. The generator spins on setImmediate rather than sleeping on a timer: timers fire at 1 ms at the
    // finest, later still on a virtual CPU that has to be woken, and the requests would leave late and in bursts,
    // a lateness counted as the server's latency (on this machine it tripled the echo server's p50).
    const interval = 1000 / rate;
    let k = 0;
    while (start + k * interval < end) {
      const now = performance.now();
      for (; start + k * interval <= now && start + k * interval < end; k++) one(start + k * interval);
      await new Promise((r) => setImmediate(r));
    }
  }
  while (inflight > 0) await new Promise((r) => setImmediate(r));
  const cpu = process.cpuUsage(cpuStart);
  const wallMs = performance.now() - start;
  client.close();
  const sorted = latencies.sorted();
  const seconds = MEASURE_MS / 1000;
  return {
    requests: sorted.length, seconds, rps: sorted.length / seconds, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), errors, statuses,
    loadCpuShare: (cpu.user + cpu.system) / 1000 / wallMs, lateSends, p99OnTime: percentile(onTime.sorted(), 0.99),
  };
}

// ---------- orchestration ----------

/** The machine's CPU time so far, in clock ticks: all of it, and what the hypervisor gave to other guests (steal). */
async function machineTicks(): Promise<{ total: number; steal: number } | undefined> {
  const stat = await readFile("/proc/stat", "utf8").catch(() => undefined);
  const fields = stat?.split("\n")[0]?.trim().split(/\s+/).slice(1).map(Number);
  if (!fields || fields.length < 8) return undefined;
  return { total: fields.reduce((a, b) => a + b, 0), steal: fields[7]! };
}

/** CPU seconds (user + system) a process has used, from /proc (Linux); undefined elsewhere. */
async function cpuSeconds(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => undefined);
  if (!stat) return undefined;
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

/** A load run plus the server's CPU time per answered request: less sensitive to other work on the machine. */
async function measured(pid: number | undefined, url: string, path: string, body: string, rate: number): Promise<LoadResult & { cpuMsPerRequest?: number }> {
  const before = await cpuSeconds(pid);
  const result = await runLoad(url, path, body, rate);
  const after = await cpuSeconds(pid);
  // Warm-up requests are served too but not counted: scale by the measured share of the run.
  const served = result.requests * (WARMUP_MS + MEASURE_MS) / MEASURE_MS;
  return before === undefined || after === undefined ? result : { ...result, cpuMsPerRequest: ((after - before) * 1000) / served };
}

async function firstLine(child: ChildProcess): Promise<string> {
  const line = await new Promise<string>((ok, fail) => {
    createInterface({ input: child.stdout! }).once("line", ok);
    child.once("exit", (code) => fail(new Error(`child exited with ${code}`)));
  });
  const m = /^listening (\S+)$/.exec(line);
  if (!m) throw new Error(`unexpected first line: ${line}`);
  return m[1]!;
}

function runLoad(url: string, path: string, body: string, rate: number): Promise<LoadResult> {
  return new Promise((ok, fail) => {
    const child = fork(SELF, ["--role", "load"], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
    child.once("message", (m) => ok(m as LoadResult));
    child.once("error", fail);
    child.send({ url, path, body, rate });
  });
}

function makeExamples(n: number): unknown[] {
  let s = 12345;
  const rand = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296);
  const options = ["A", "B", "C", "D"];
  return Array.from({ length: n }, (_, i) => {
    const label = options[Math.floor(rand() * 4)]!;
    const top = rand() < 0.8 ? label : options[Math.floor(rand() * 4)]!;
    const raw = options.map((o) => (o === top ? 2 + rand() * 3 : rand()));
    const sum = raw.reduce((a, b) => a + b, 0);
    return { context: `example ${i}`, label, metadata: { evidence: { option_probabilities: Object.fromEntries(options.map((o, j) => [o, raw[j]! / sum])) } } };
  });
}

const evaluateBody = JSON.stringify({
  context: "A support ticket about a late delivery.",
  backend: { provider: "client_evidence", name: "bench-model", access_level: "L1" },
  queries: Object.fromEntries(["topic", "urgency", "tone", "team"].map((q, i) => [q, {
    type: "set", instructions: `Classify the ${q}`, options: { A: "a", B: "b", C: "c", D: "d" }, calibration_profile: "bench",
    evidence: { option_probabilities: { A: 0.55 - i * 0.05, B: 0.25, C: 0.12 + i * 0.03, D: 0.08 + i * 0.02 } },
  }])),
});

async function main(): Promise<void> {
  const echo = spawn(process.execPath, [...["--import", "tsx"], SELF, "--role", "echo"], { cwd: REPO, stdio: ["ignore", "pipe", "inherit"] });
  const data = await mkdtemp(join(tmpdir(), "calibkit-bench-"));
  const configFile = join(data, "config.json");
  await writeFile(configFile, JSON.stringify({ rate_limit: { requests_per_second: 0, burst: 1 } }));
  const service = spawn(process.execPath, ["bin/calibkit.js", "serve", "--port", "0", "--data", join(data, "service"), "--config", configFile], {
    cwd: REPO, env: { ...process.env, CALIBKIT_FROM_SOURCE: "1" }, stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const [echoUrl, serviceUrl] = await Promise.all([firstLine(echo), firstLine(service)]);
    const api = `${serviceUrl}/api/v1`;
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${api}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<Record<string, unknown>>;
    };
    await post("/calibration-profiles", { name: "bench", backend: { provider: "client_evidence", name: "bench-model", access_level: "L1" }, alpha: 0.1, method: "LAC" });
    const profile = await post("/calibration-profiles/bench/examples", { examples: makeExamples(10_000) });
    const check = await post("/evaluate", JSON.parse(evaluateBody));
    if ((check.answers as Record<string, { guarantee: { n: number } }>).topic!.guarantee.n !== 10_000) throw new Error("profile not served from 10,000 examples");

    // Peaks alternate echo / service three times and keep each one's median run, so that load from other work
    // on the machine falls on both alike.
    const ticksBefore = await machineTicks();
    const echoRuns: (LoadResult & { cpuMsPerRequest?: number })[] = [];
    const serviceRuns: (LoadResult & { cpuMsPerRequest?: number })[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      echoRuns.push(await measured(echo.pid, echoUrl, "/", evaluateBody, 0));
      serviceRuns.push(await measured(service.pid, serviceUrl, "/api/v1/evaluate", evaluateBody, 0));
    }
    const median = (runs: LoadResult[]) => [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)]!;
    const echoPeak = median(echoRuns);
    const servicePeak = median(serviceRuns);
    // Half-peak latency alternates too; each row is the run with the median p99.
    const echoHalfRuns: LoadResult[] = [];
    const serviceHalfRuns: LoadResult[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      echoHalfRuns.push(await runLoad(echoUrl, "/", evaluateBody, echoPeak.rps / 2));
      serviceHalfRuns.push(await runLoad(serviceUrl, "/api/v1/evaluate", evaluateBody, servicePeak.rps / 2));
    }
    const medianP99 = (runs: LoadResult[]) => [...runs].sort((a, b) => a.p99 - b.p99)[Math.floor(runs.length / 2)]!;
    const echoHalf = medianP99(echoHalfRuns);
    const serviceHalf = medianP99(serviceHalfRuns);
    const p99s = (runs: LoadResult[]) => runs.map((r) => f(r.p99)).join(", ");
    const onTimeP99s = (runs: LoadResult[]) => runs.map((r) => f(r.p99OnTime)).join(", ");
    const lateShares = (runs: LoadResult[]) => runs.map((r) => `${((100 * r.lateSends) / Math.max(1, r.requests)).toFixed(1)}%`).join(", ");

    const ticksAfter = await machineTicks();
    const stealShare = ticksBefore && ticksAfter && ticksAfter.total > ticksBefore.total
      ? (ticksAfter.steal - ticksBefore.steal) / (ticksAfter.total - ticksBefore.total) : undefined;
    const f = (x: number, d = 2) => x.toFixed(d);
    const rows = [
      [`echo server, peak (closed loop, 32 connections; median of ${ROUNDS})`, echoPeak],
      [`service POST /evaluate, peak (median of ${ROUNDS})`, servicePeak],
      [`echo server at half its peak (${f(echoPeak.rps / 2, 0)} req/s, open loop; median p99 of ${ROUNDS})`, echoHalf],
      [`service at half its peak (${f(servicePeak.rps / 2, 0)} req/s, open loop; median p99 of ${ROUNDS})`, serviceHalf],
    ] as const;
    const table = rows.map(([name, r]) => `| ${name} | ${f(r.rps, 0)} | ${f(r.p50)} | ${f(r.p99)} | ${r.errors} | ${JSON.stringify(r.statuses)} |`).join("\n");
    const ratio = servicePeak.rps / echoPeak.rps;
    const allRatios = serviceRuns.map((r, i) => (r.rps / echoRuns[i]!.rps).toFixed(2)).join(", ");
    const cpuMedian = (runs: { cpuMsPerRequest?: number }[]) => {
      const v = runs.map((r) => r.cpuMsPerRequest).filter((x): x is number => x !== undefined).sort((a, b) => a - b);
      return v.length ? v[Math.floor(v.length / 2)]! : undefined;
    };
    const loadShare = (runs: LoadResult[]) => runs.map((r) => r.loadCpuShare).sort((a, b) => a - b)[Math.floor(runs.length / 2)]!;
    const echoCpu = cpuMedian(echoRuns);
    const serviceCpu = cpuMedian(serviceRuns);
    const cpuLine = echoCpu !== undefined && serviceCpu !== undefined
      ? `- server CPU per request at peak (median of ${ROUNDS}, from /proc): echo ${f(echoCpu, 3)} ms, service ${f(serviceCpu, 3)} ms → capacity ratio **${f(echoCpu / serviceCpu)}×** (one core each; less sensitive to other work on the machine than req/s)\n`
      : "";
    const md = `# bench/service.ts: POST /evaluate throughput and latency

- command: \`npx tsx bench/service.ts\`
- date: ${new Date().toISOString()}
- CPU: ${cpus()[0]?.model ?? "unknown"}, ${cpus().length} cores
- node: ${process.version}
- machine load average (1/5/15 min) at the end of the run: ${loadavg().map((x) => x.toFixed(2)).join(" / ")} (other work on the machine shares its ${cpus().length} cores)${stealShare !== undefined ? `; CPU time the hypervisor gave to other guests during the measurements (steal): ${(stealShare * 100).toFixed(1)}%` : ""}
- workload: client_evidence evaluate with 4 set queries (LAC, alpha 0.1) over 4 options, on a profile of ${profile.n as number} examples (version ${profile.version as number});
  ${(evaluateBody.length / 1024).toFixed(1)} KiB request body; load from a separate process over loopback (a raw-socket HTTP/1.1 client, ${CONNECTIONS} keep-alive connections, one request in flight on each);
  ${WARMUP_MS} ms warm-up then ${MEASURE_MS} ms measured per row. Baseline: a bare node:http server that parses the same body and echoes it as JSON, measured in the same run.
  Half-peak rows are open loop (latency counted from each request's scheduled time, so queueing is not hidden; the generator spins rather than sleeps, so that it sends on time).

| run | req/s | p50 ms | p99 ms | errors | statuses |
|---|---|---|---|---|---|
${table}

- throughput ratio service / echo at peak: **${f(ratio)}×** (goal ≥ 0.5×); per alternating round: ${allRatios}
${cpuLine}- load generator CPU at peak (median of ${ROUNDS}, share of one core): echo ${f(loadShare(echoRuns))}, service ${f(loadShare(serviceRuns))}${loadShare(echoRuns) > 0.9 ? " — the generator was saturated at the echo peak, so the echo figure is a lower bound and the ratio an upper bound" : " (below 1: the generator was not the limit)"}
- service p99 at half its peak rate: **${f(serviceHalf.p99)} ms** (goal ≤ 10 ms; per round: ${p99s(serviceHalfRuns)}); the echo server's own p99 at half its peak in the same run: ${f(echoHalf.p99)} ms (per round: ${p99s(echoHalfRuns)})
- the same p99s over the requests the generator sent on time (within ${LATE_SEND_MS} ms of schedule; a late send means the generator itself had lost the CPU): service ${onTimeP99s(serviceHalfRuns)}, echo ${onTimeP99s(echoHalfRuns)}; late sends per round: service ${lateShares(serviceHalfRuns)}, echo ${lateShares(echoHalfRuns)}
`;
    await mkdir(join(REPO, "bench/results"), { recursive: true });
    await writeFile(join(REPO, "bench/results/service.md"), md);
    process.stdout.write(md);
  } finally {
    echo.kill();
    service.kill("SIGTERM");
  }
}

const roleIndex = process.argv.indexOf("--role");
const role = roleIndex >= 0 ? process.argv[roleIndex + 1] : undefined;
if (role === "echo") echoServer();
else if (role === "load") {
  process.once("message", (m: { url: string; path: string; body: string; rate: number }) => {
    void load(m.url, m.path, m.body, m.rate).then((r) => {
      process.send!(r, () => process.exit(0));
    });
  });
} else {
  main().catch((err: unknown) => {
    process.stderr.write(`bench/service.ts: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
