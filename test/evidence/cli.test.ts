// `calibkit evidence` as a user runs it: a real process over a request file.
import { spawnSync } from "node:child_process";
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
const cli = (...args: string[]) => spawnSync(process.execPath, ["bin/calibkit.js", "evidence", ...args], {
  env: { ...process.env, CALIBKIT_FROM_SOURCE: "1" }, encoding: "utf8", timeout: 60_000,
});

describe("calibkit evidence", () => {
  it("prints a valid client_evidence request at the request's hint", () => {
    const run = cli("--model", "stories260K.gguf", "--request", requestFile);
    expect(run.status, run.stderr).toBe(0);
    const request = parseEvaluateRequest(JSON.parse(run.stdout));
    expect(request.backend).toMatchObject({ provider: "client_evidence", access_level: "L1" });
  });

  it("names a bad option and a hint above the model's level", () => {
    const bad = cli("--model", "x", "--request", requestFile, "--bogus");
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--bogus/);
    const high = cli("--model", "tiny-gpt2", "--request", requestFile, "--access-hint", "hidden-state");
    expect(high.status).toBe(1);
    expect(high.stderr).toMatch(/ACCESS_LEVEL_UNAVAILABLE.*L4.*L3/);
  });
});
