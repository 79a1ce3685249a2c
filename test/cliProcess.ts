// The `calibkit` command as a user runs it: a child process of bin/calibkit.js on the TypeScript source, with
// the test models resolved as the README says (CALIBKIT_MODELS_DIR, else ../shared/models).
import { spawn } from "node:child_process";
import { join, resolve } from "node:path";

export const MODELS = process.env.CALIBKIT_MODELS_DIR ?? resolve("..", "shared", "models");
export const GGUF = join(MODELS, "stories260K.gguf");
export const ONNX = join(MODELS, "tiny-gpt2");

export interface CliRun { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }

/** Runs `calibkit ARGS` to its end; `onStderr` sees the error output so far and may signal the process. */
export function runCalibkit(args: string[], env: Record<string, string> = {}, onStderr?: (text: string, kill: (s: NodeJS.Signals) => void) => void): Promise<CliRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ["bin/calibkit.js", ...args], {
      env: { ...process.env, CALIBKIT_FROM_SOURCE: "1", ...env }, stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
      onStderr?.(stderr, (s) => child.kill(s));
    });
    child.once("error", fail);
    child.once("close", (code, signal) => done({ code, signal, stdout, stderr }));
  });
}
