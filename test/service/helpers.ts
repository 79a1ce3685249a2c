// Starts real `calibkit serve` processes (and `calibkit serve-model`) for the black-box tests, and builds
// client-evidence examples with a known structure.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

export const REPO = new URL("../../", import.meta.url).pathname;

export interface Spawned {
  url: string;
  child: ChildProcess;
  stderr: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Spawns `calibkit <command> ...args` and resolves once its first stdout line `listening URL` appears. */
export async function spawnCalibkit(args: string[], timeoutMs = 30_000): Promise<Spawned> {
  const child = spawn(process.execPath, ["bin/calibkit.js", ...args], {
    cwd: REPO,
    env: { ...process.env, CALIBKIT_FROM_SOURCE: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  child.stderr!.on("data", (d: Buffer) => { err += d.toString(); });
  const exited = new Promise<number | null>((ok) => child.once("exit", (code) => ok(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`calibkit ${args[0]} did not start in ${timeoutMs} ms: ${err}`)), timeoutMs);
    const lines = createInterface({ input: child.stdout! });
    lines.once("line", (line) => {
      clearTimeout(timer);
      const m = /^listening (http:\/\/\S+)$/.exec(line.trim());
      if (m) resolve(m[1]!);
      else reject(new Error(`unexpected first line "${line}" (stderr: ${err})`));
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`calibkit ${args[0]} exited with ${code}: ${err}`));
    });
  });
  return {
    url,
    child,
    stderr: () => err,
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

export async function tempDir(prefix = "calibkit-service-"): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export async function startServer(options: { data?: string; config?: unknown; host?: string; store?: string } = {}): Promise<Spawned & { data: string }> {
  const data = options.data ?? (await tempDir());
  const args = ["serve", "--port", "0", "--data", data];
  if (options.store) args.push("--store", options.store);
  if (options.host) args.push("--host", options.host);
  if (options.config !== undefined) {
    const file = join(await tempDir("calibkit-config-"), "config.json");
    await writeFile(file, JSON.stringify(options.config));
    args.push("--config", file);
  }
  return { ...(await spawnCalibkit(args)), data };
}

/** A small deterministic generator for test data. */
export function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

export const CLIENT_BACKEND = { provider: "client_evidence", name: "local-model", access_level: "L1" } as const;
export const OPTIONS = ["A", "B", "C", "D"] as const;

/** Probabilities over A..D whose top option is the label with probability ~0.8. */
export function setExample(rand: () => number, i: number, extra: Record<string, unknown> = {}) {
  const label = OPTIONS[Math.floor(rand() * 4)]!;
  const top = rand() < 0.8 ? label : OPTIONS[Math.floor(rand() * 4)]!;
  const raw = OPTIONS.map((o) => (o === top ? 2 + rand() * 3 : rand()));
  const sum = raw.reduce((a, b) => a + b, 0);
  const option_probabilities = Object.fromEntries(OPTIONS.map((o, j) => [o, raw[j]! / sum]));
  return { context: `item ${i}`, label, metadata: { evidence: { option_probabilities }, ...extra } };
}

export function binaryExample(rand: () => number, i: number, names: [string, string]) {
  const positive = rand() < 0.5;
  const p = positive ? 0.5 + rand() * 0.5 : rand() * 0.5;
  const noisy = rand() < 0.1 ? 1 - p : p;
  return {
    context: `binary ${i}`,
    label: positive ? names[0] : names[1],
    metadata: { evidence: { option_probabilities: { [names[0]]: noisy, [names[1]]: 1 - noisy } } },
  };
}
