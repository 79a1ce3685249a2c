// Runs `calibkit` commands as real processes, from source, the way a user runs them.
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));

export interface Served {
  url: string;
  child: ChildProcess;
  stderr: () => string;
  /** Resolves with the exit code (or signal name) once the process is gone. */
  exited: Promise<number | string>;
}

export function runCalibkit(args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, ["bin/calibkit.js", ...args], {
    cwd: root,
    env: { ...process.env, CALIBKIT_FROM_SOURCE: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** Starts a serving command and resolves once it printed `listening URL`. */
export async function serve(args: string[], env: Record<string, string> = {}, timeoutMs = 20_000): Promise<Served> {
  const child = runCalibkit(args, env);
  let err = "";
  child.stderr!.on("data", (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | string>((resolve) => child.on("exit", (code, signal) => resolve(code ?? signal ?? -1)));
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening" line within ${timeoutMs} ms; stderr: ${err}`)), timeoutMs);
    lines.once("line", (line) => {
      clearTimeout(timer);
      const m = /^listening (http:\/\/\S+)$/.exec(line);
      if (m) resolve(m[1]!);
      else reject(new Error(`first stdout line was "${line}"; stderr: ${err}`));
    });
    void exited.then((code) => reject(new Error(`exited (${code}) before listening; stderr: ${err}`)));
  });
  return { url, child, stderr: () => err, exited };
}

/** Collects a finished command's exit code and output. */
export async function runToEnd(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = runCalibkit(args, env);
  let out = "";
  let err = "";
  child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (err += c.toString()));
  const code = await new Promise<number>((resolve) => child.on("exit", (c) => resolve(c ?? -1)));
  return { code, stdout: out, stderr: err };
}
