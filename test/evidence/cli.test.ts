// `calibkit evidence` as a user runs it: real processes over a request file. The three runs (each loads the
// CLI and most take a model) start together when the file loads, so their start-up overlaps; each test awaits
// its own run.
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseEvaluateRequest } from "../../src/api/index.js";

const dir = mkdtempSync(join(tmpdir(), "calibkit-evidence-"));
const requestFile = join(dir, "request.json");
writeFileSync(requestFile, JSON.stringify({
  context: "Once upon a time, there was a little girl named Lily. She loved to play with her",
  backend: { provider: "vllm", access_hint: "logprobs" },
  queries: { toy: { type: "set", instructions: "What did Lily play with?", options: { toys: "", doll: "" }, calibration_profile: "p" } },
}));

interface Run { status: number | null; stdout: string; stderr: string }
const cli = (...args: string[]): Promise<Run> => new Promise((resolve, reject) => {
  const child = spawn(process.execPath, ["bin/calibkit.js", "evidence", ...args], {
    env: { ...process.env, CALIBKIT_FROM_SOURCE: "1" }, stdio: ["ignore", "pipe", "pipe"], timeout: 60_000,
  });
  let stdout = "", stderr = "";
  child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
  child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
  child.once("error", reject);
  child.once("close", (status) => resolve({ status, stdout, stderr }));
});
const runs = {
  valid: cli("--model", "stories260K.gguf", "--request", requestFile),
  bogus: cli("--model", "x", "--request", requestFile, "--bogus"),
  high: cli("--model", "tiny-gpt2", "--request", requestFile, "--access-hint", "hidden-state"),
};

describe("calibkit evidence", () => {
  it("prints a valid client_evidence request at the request's hint", async () => {
    const run = await runs.valid;
    expect(run.status, run.stderr).toBe(0);
    const request = parseEvaluateRequest(JSON.parse(run.stdout));
    expect(request.backend).toMatchObject({ provider: "client_evidence", access_level: "L1" });
  });

  it("names a bad option and a hint above the model's level", async () => {
    const bad = await runs.bogus;
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--bogus/);
    const high = await runs.high;
    expect(high.status).toBe(1);
    expect(high.stderr).toMatch(/ACCESS_LEVEL_UNAVAILABLE.*L4.*L3/);
  });
});
