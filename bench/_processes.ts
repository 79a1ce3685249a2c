// The processes bench/service.ts measures: `calibkit serve` on a store, and the echo baseline; their start times
// and their CPU time from /proc (Linux), which stays comparable on a machine other work shares.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { readFile } from "node:fs/promises";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("../", import.meta.url));

export interface Started {
  child: ChildProcess;
  /** `http://127.0.0.1:PORT`. */
  url: string;
  /** From spawn until the process printed `listening`. */
  listenMs: number;
  /** The last lines the process wrote to stderr (the service logs every 503 it answers while loading). */
  stderrTail(): string;
}

async function started(child: ChildProcess, t0: number): Promise<Started> {
  let tail = "";
  child.stderr?.on("data", (c: Buffer) => (tail = (tail + c.toString()).slice(-8192)));
  // The first line is `listening URL`, unless node's own tracing (--trace-gc) writes to stdout before it.
  const url = await new Promise<string>((ok, fail) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      const m = /^listening (\S+)$/.exec(line);
      if (m) ok(m[1]!);
    });
    child.once("exit", (code) => fail(new Error(`the process exited with ${code} before listening: ${tail}`)));
  });
  return { child, url, listenMs: performance.now() - t0, stderrTail: () => tail };
}

/**
 * The echo baseline (bench/_echo.ts). With `fromSource` through tsx, as calibkit then runs; otherwise the same
 * server as plain JavaScript, for comparing with the compiled calibkit.
 */
export function startEcho(fromSource = true): Promise<Started> {
  const t0 = performance.now();
  const echo = fileURLToPath(new URL("./_echo.ts", import.meta.url));
  const args = fromSource ? ["--import", "tsx", echo] : ["--input-type=module", "-e", PLAIN_ECHO];
  const child = spawn(process.execPath, args, { cwd: REPO, stdio: ["ignore", "pipe", "inherit"] });
  return started(child, t0);
}

const PLAIN_ECHO = `import { createServer } from "node:http";
const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const out = JSON.stringify(JSON.parse(Buffer.concat(chunks).toString("utf8")));
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(out) });
    res.end(out);
  });
});
server.listen(0, "127.0.0.1", () => process.stdout.write("listening http://127.0.0.1:" + server.address().port + "\\n"));`;

/** Compiles src/ into dist/ (npm run build), what an installed calibkit runs. */
export function build(): void {
  const r = spawnSync(process.execPath, [join(REPO, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"], { cwd: REPO, stdio: "inherit" });
  // tsc emits despite type errors (as npm's prepare does); only a missing entry point stops the bench.
  if (r.status !== 0) process.stderr.write(`bench: the build reported errors (exit ${r.status}); measuring what it emitted\n`);
  if (!existsSync(join(REPO, "dist/cli/main.js"))) throw new Error("the build wrote no dist/cli/main.js; run with BENCH_FROM_SOURCE=1 to measure the source through tsx");
}

/**
 * `calibkit serve` (compiled, or from source through tsx) on the SQLite store in `data`, or on `store` (a
 * postgres:// URL); `nodeArgs` go to node before the script (`--trace-gc`: its lines are on the child's stdout).
 */
export function startServe(data: string, configFile: string, store: string | undefined, fromSource: boolean, nodeArgs: readonly string[] = []): Promise<Started> {
  const t0 = performance.now();
  const args = [...nodeArgs, "bin/calibkit.js", "serve", "--port", "0", "--data", data, "--config", configFile, ...(store ? ["--store", store] : [])];
  const env = { ...process.env };
  if (fromSource) env.CALIBKIT_FROM_SOURCE = "1";
  else delete env.CALIBKIT_FROM_SOURCE;
  const child = spawn(process.execPath, args, { cwd: REPO, env, stdio: ["ignore", "pipe", "pipe"] });
  return started(child, t0);
}

/** Sends `signal` (SIGTERM: a clean stop, the store closed; SIGKILL: a crash) and waits for the exit. */
export function stop(child: ChildProcess, signal: "SIGTERM" | "SIGKILL" = "SIGTERM"): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.kill(signal);
  });
}

/** CPU seconds (user + system) a process has used, from /proc; undefined elsewhere. */
export async function cpuSeconds(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => undefined);
  if (!stat) return undefined;
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

/** The machine's CPU time so far, in clock ticks: all of it, and what the hypervisor gave to other guests (steal). */
export async function machineTicks(): Promise<{ total: number; steal: number } | undefined> {
  const stat = await readFile("/proc/stat", "utf8").catch(() => undefined);
  const fields = stat?.split("\n")[0]?.trim().split(/\s+/).slice(1).map(Number);
  if (!fields || fields.length < 8) return undefined;
  return { total: fields.reduce((a, b) => a + b, 0), steal: fields[7]! };
}
