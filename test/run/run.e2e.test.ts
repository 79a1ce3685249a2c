// `calibkit run` end to end, as a user runs it: a child process on the real tiny models, the embedded
// service on loopback, the bundled datasets (small slices to stay fast).
import { existsSync } from "node:fs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { coverageBand } from "../../src/run/index.js";
import type { RunSummary } from "../../src/report/index.js";
import { FIGURE_IDS } from "../../src/report/index.js";
import { GGUF, ONNX, runCalibkit } from "../cliProcess.js";

/** A run takes 10–35 s alone on 2 cores; the full suite runs other files beside it. */
const E2E_TIMEOUT_MS = 180_000;

const calibkit = (args: string[]) => runCalibkit(args);

async function outputs(dir: string): Promise<{ summary: RunSummary; html: string }> {
  return {
    summary: JSON.parse(await readFile(join(dir, "summary.json"), "utf8")) as RunSummary,
    html: await readFile(join(dir, "report.html"), "utf8"),
  };
}

function expectPlots(html: string): void {
  for (const id of FIGURE_IDS) {
    const figure = new RegExp(`<figure id="${id}">[\\s\\S]*?</figure>`).exec(html)?.[0] ?? "";
    expect(figure, id).toMatch(/<svg[\s\S]*<path [\s\S]*<\/svg>/);
  }
}

describe("calibkit run", () => {
  it.skipIf(!existsSync(GGUF))("calibrates stories260K on a slice of the story-cloze set: coverage in band, 0 disagreements, a report with every plot", async () => {
    const out = await mkdtemp(join(tmpdir(), "calibkit-run-"));
    const r = await calibkit(["run", "--model", GGUF, "--limit", "400", "--out", out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/measured coverage: [\d.]+% on \d+ test items/);
    expect(r.stdout).toMatch(/average set size: [\d.]+, largest \d/);
    expect(r.stdout).toMatch(/cross-check: 0 disagreements over \d+ answers/);
    expect(r.stderr).toMatch(/evidence: \d+\/\d+ \(\d+%, [\d.]+\/s, ETA \d+ s\)|evidence: \d+\/\d+ in/);

    const { summary: s, html } = await outputs(out);
    expect(s.split).toEqual({ calibration: 211, test: 105, audit: 42, monitor: 42 });
    // Split-conformal test coverage of a seeded split lies in the beta-binomial band of its size.
    const [lo, hi] = coverageBand(s.test.n, s.profile.n, 0.1);
    expect(s.test.coverage).toBeGreaterThanOrEqual(lo);
    expect(s.test.coverage).toBeLessThanOrEqual(hi);
    expect(s.crossCheck.disagreements).toEqual([]);
    expect(s.crossCheck.answers).toBe(s.test.n + 2); // every test answer, the audit, the monitor
    // The model has real signal on the set: well above the 25% of chance.
    expect(s.test.accuracy).toBeGreaterThan(0.5);
    expect(s.test.averageSetSize).toBeLessThan(2.5);
    expect(s.audit.sample).toBe(42);
    expect(s.monitor.path).toHaveLength(42);
    expectPlots(html);
  }, E2E_TIMEOUT_MS);

  it.skipIf(!existsSync(ONNX))("runs the ONNX model on a dataset in MMLU CSV format", async () => {
    const out = await mkdtemp(join(tmpdir(), "calibkit-run-onnx-"));
    const r = await calibkit(["run", "--model", ONNX, "--dataset", "fixtures/story-cloze-mmlu.csv", "--limit", "60", "--out", out, "--quiet"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/cross-check: 0 disagreements/);
    const { summary: s, html } = await outputs(out);
    expect(s.model.backend).toBe("transformers");
    expect(s.dataset.items).toBe(60);
    expect(s.crossCheck.disagreements).toEqual([]);
    expectPlots(html);
  }, E2E_TIMEOUT_MS);

  it("refuses a malformed dataset naming file, line and field, before loading any model", async () => {
    const dir = await mkdtemp(join(tmpdir(), "calibkit-bad-"));
    const file = join(dir, "bad.csv");
    await writeFile(file, "q1,a,b,c,d,A\nq2,a,b,c,d,Z\n");
    const r = await calibkit(["run", "--dataset", file, "--model", "/nonexistent.gguf", "--quiet"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file}, line 2, field "answer": "Z" is not one of the options A, B, C, D`);
  });
});

describe("calibkit run --service", () => {
  it.skipIf(!existsSync(GGUF))("uses a remote service with the API key from $CALIBKIT_API_KEY, and fails at once without it", async () => {
    const { startService } = await import("../../src/service/index.js");
    const dataDir = await mkdtemp(join(tmpdir(), "calibkit-remote-"));
    const service = await startService({ dataDir, config: { keys: ["run-test-key-0123"] }, log: () => undefined });
    try {
      const out = await mkdtemp(join(tmpdir(), "calibkit-run-remote-"));
      const args = ["run", "--model", GGUF, "--service", service.baseUrl, "--limit", "80", "--out", out, "--quiet"];
      const denied = await calibkitWith(args, { CALIBKIT_API_KEY: "" });
      expect(denied.code).toBe(1);
      expect(denied.stderr).toMatch(/API key/);
      const r = await calibkitWith(args, { CALIBKIT_API_KEY: "run-test-key-0123" });
      expect(r.code, r.stderr).toBe(0);
      const { summary: s } = await outputs(out);
      expect(s.service).toEqual({ url: service.baseUrl, embedded: false });
      expect(s.profile.name).toMatch(/^story-cloze-[a-z0-9]+$/);
      expect(s.crossCheck.disagreements).toEqual([]);
    } finally {
      await service.close();
    }
  }, 2 * E2E_TIMEOUT_MS);
});

function calibkitWith(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    return calibkit(args);
  } finally {
    process.env = saved;
  }
}
