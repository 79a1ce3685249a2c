// Run hygiene: the output folder and the split are checked before the model loads, Ctrl-C leaves no
// temporary folder (nor the lock inside it), and a failed audit is exit status 3 unless accepted.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { exitCodeOf } from "../../src/cli/run/exitCode.js";
import { parseRunOptions } from "../../src/cli/run/options.js";
import { checkOutDir, checkSplitSizes } from "../../src/run/index.js";
import { sampleSummary } from "../report/sampleSummary.js";

const MODELS = process.env.CALIBKIT_MODELS_DIR ?? resolve("..", "shared", "models");
const GGUF = join(MODELS, "stories260K.gguf");

interface Child { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }

function calibkit(args: string[], env: Record<string, string> = {}, onStderr?: (text: string, kill: (s: NodeJS.Signals) => void) => void): Promise<Child> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ["bin/calibkit.js", ...args], { env: { ...process.env, CALIBKIT_FROM_SOURCE: "1", ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += String(d)));
    child.stderr.on("data", (d) => {
      stderr += String(d);
      onStderr?.(stderr, (s) => child.kill(s));
    });
    child.on("exit", (code, signal) => done({ code, signal, stdout, stderr }));
  });
}

describe("checked before the model loads", () => {
  it("refuses --out under a file, or a file itself, with exit status 2", async () => {
    const dir = await mkdtemp(join(tmpdir(), "calibkit-out-"));
    await writeFile(join(dir, "afile"), "x");
    const r = await calibkit(["run", "--model", "/nonexistent.gguf", "--out", join(dir, "afile", "sub"), "--quiet"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--out: ${join(dir, "afile")} is a file, so ${join(dir, "afile", "sub")} cannot be created`);
    await expect(checkOutDir(join(dir, "afile"))).rejects.toThrow(/is a file, not a folder/);
    await expect(checkOutDir(join(dir, "new", "deeper"))).resolves.toBeUndefined();
    expect(existsSync(join(dir, "new"))).toBe(false); // checked, not created
  }, 60_000);

  it("refuses a split too small for a finite threshold (--limit 12 at α = 0.1) before loading the model", async () => {
    const r = await calibkit(["run", "--model", "/nonexistent.gguf", "--limit", "12", "--quiet"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/12 usable items split into 7 calibration and 3 test items; α = 0\.1 needs at least 9 calibration examples \(minimum_n\)/);
    expect(r.stderr).not.toMatch(/nonexistent/);
    expect(() => checkSplitSizes({ calibration: 9, test: 1 }, 10, 0.1, "d")).not.toThrow();
    expect(() => checkSplitSizes({ calibration: 18, test: 1 }, 19, 0.05, "d")).toThrow(/needs at least 19/);
  }, 60_000);
});

describe("exit status", () => {
  it("is 3 for a failed audit unless --allow-audit-fail, 1 for a disagreement", () => {
    const failed = sampleSummary({ audit: { result: "fail", realizedCoverage: 0.8, ci: [0.74, 0.85], sample: 200, target: 0.9, date: "" } });
    expect(exitCodeOf(failed, false)).toBe(3);
    expect(exitCodeOf(failed, parseRunOptions(["--allow-audit-fail"]).allowAuditFail)).toBe(0);
    expect(exitCodeOf(sampleSummary(), false)).toBe(0);
    const disagreeing = sampleSummary({ crossCheck: { answers: 1, fields: 1, disagreements: [{ query: "q", field: "set", service: [], local: ["A"] }] } });
    expect(exitCodeOf(disagreeing, true)).toBe(1);
  });
});

describe("Ctrl-C", () => {
  it.skipIf(!existsSync(GGUF))("during the evidence step leaves no temporary folder or lock, exit status 130", async () => {
    const tmp = await mkdtemp(join(tmpdir(), "calibkit-sigint-"));
    const out = await mkdtemp(join(tmpdir(), "calibkit-sigint-out-"));
    let seen: string[] = [];
    let sent = false;
    const r = await calibkit(["run", "--model", GGUF, "--limit", "2000", "--out", out], { TMPDIR: tmp }, (text, kill) => {
      if (!sent && /evidence: \d+\/\d+/.test(text)) {
        sent = true;
        void readdir(tmp).then((names) => {
          seen = names;
          kill("SIGINT");
        });
      }
    });
    expect(sent, r.stderr).toBe(true);
    expect(seen.some((n) => n.startsWith("calibkit-run-")), `the service's folder existed: ${seen.join(", ")}`).toBe(true);
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toMatch(/interrupted; removing 1 temporary folder/);
    expect((await readdir(tmp)).filter((n) => n.startsWith("calibkit-"))).toEqual([]);
    expect(await readdir(out)).toEqual([]); // no half-written report
  }, 180_000);
});
