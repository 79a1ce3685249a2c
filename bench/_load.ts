// The load generator of bench/service.ts, run in a process of its own (runLoad forks this file) so that it never
// shares an event loop with the bench's other clients: closed loop (as fast as CONNECTIONS workers go) or open
// loop at a fixed rate, latency counted from each request's scheduled time.
import { fork } from "node:child_process";
import { connect, type Socket } from "node:net";
import { fileURLToPath } from "node:url";

const SELF = fileURLToPath(import.meta.url);
export const CONNECTIONS = 32;
/** An open-loop send this much after its scheduled time means the generator, not the server, was held up. */
export const LATE_SEND_MS = 1;

export interface LoadOptions {
  url: string;
  path: string;
  body: string;
  /** Requests per second, open loop; 0: closed loop. */
  rate: number;
  warmupMs: number;
  measureMs: number;
}

export interface LoadResult {
  requests: number; seconds: number; rps: number; p50: number; p99: number; max: number; errors: number; statuses: Record<string, number>;
  /** CPU the load process used over the run, as a share of one core: near 1 means the generator was the limit. */
  loadCpuShare: number;
  /** Open loop: requests the generator itself sent over 1 ms after their scheduled time (it had lost the CPU). */
  lateSends: number;
  /** Open loop: p99 of the requests the generator sent on time, which its own stalls did not delay. */
  p99OnTime: number;
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

async function load({ url, path, body, rate, warmupMs, measureMs }: LoadOptions): Promise<LoadResult> {
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
  const measureFrom = start + warmupMs;
  const end = measureFrom + measureMs;
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
  const seconds = measureMs / 1000;
  return {
    requests: sorted.length, seconds, rps: sorted.length / seconds, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99),
    max: sorted.length ? sorted[sorted.length - 1]! : NaN, errors, statuses,
    loadCpuShare: (cpu.user + cpu.system) / 1000 / wallMs, lateSends, p99OnTime: percentile(onTime.sorted(), 0.99),
  };
}

/** Runs one load in a fresh generator process. */
export function runLoad(options: LoadOptions): Promise<LoadResult> {
  return new Promise((ok, fail) => {
    const child = fork(SELF, ["--role", "load"], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
    child.once("message", (m) => ok(m as LoadResult));
    child.once("error", fail);
    child.once("exit", (code) => code !== 0 && fail(new Error(`the load generator exited with ${code}`)));
    child.send(options);
  });
}

if (process.argv.includes("--role") && process.argv[process.argv.indexOf("--role") + 1] === "load") {
  process.once("message", (m: LoadOptions) => {
    void load(m).then((r) => process.send!(r, () => process.exit(0)));
  });
}
