// `calibkit run` with the prompt flags, end to end on stories260K over a file in the Hugging Face
// `cais/mmlu` layout (question, subject, choices, answer index): the letters format, and 3-shot with the
// exemplars left out of the split. Coverage stays in its band whatever the prompt: the guarantee is the
// calibration's, not the model's.
import { existsSync } from "node:fs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { coverageBand } from "../../src/run/index.js";
import type { RunSummary } from "../../src/report/index.js";
import { GGUF, runCalibkit } from "../cliProcess.js";

const E2E_TIMEOUT_MS = 180_000;

const calibkit = (args: string[]) => runCalibkit(args);

let dir: string;
let dataset: string;
let fewshot: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "calibkit-prompts-run-"));
  // The bundled story-cloze items rewritten in the cais/mmlu layout.
  const rows = (await readFile("fixtures/story-cloze.jsonl", "utf8")).trim().split("\n").slice(0, 160).map((l) => {
    const r = JSON.parse(l) as { context: string; question: string; options: Record<string, string>; answer: string; group: string };
    return JSON.stringify({
      question: `${r.context} ${r.question}`, subject: r.group.replace(/-/g, "_"),
      choices: Object.values(r.options), answer: Object.keys(r.options).indexOf(r.answer),
    });
  });
  dataset = join(dir, "story-mmlu.jsonl");
  fewshot = join(dir, "dev.jsonl");
  await writeFile(dataset, rows.join("\n") + "\n");
  await writeFile(fewshot, rows.slice(0, 3).join("\n") + "\n");
});

async function checkRun(args: string[]): Promise<{ summary: RunSummary; stderr: string }> {
  const out = join(dir, `out-${args.join("-").replace(/[^a-z0-9]+/gi, "_").slice(-40)}`);
  const r = await calibkit(["run", "--model", GGUF, "--dataset", dataset, "--calibration", "100", "--test", "40", "--audit", "0", "--monitor", "0", "--out", out, ...args]);
  expect(r.code, r.stderr).toBe(0);
  const summary = JSON.parse(await readFile(join(out, "summary.json"), "utf8")) as RunSummary;
  const [lo, hi] = coverageBand(summary.test.n, summary.profile.n, 0.1);
  expect(summary.test.coverage).toBeGreaterThanOrEqual(lo);
  expect(summary.test.coverage).toBeLessThanOrEqual(hi);
  expect(summary.crossCheck.disagreements).toEqual([]);
  return { summary, stderr: r.stderr };
}

describe.skipIf(!existsSync(GGUF))("calibkit run with prompt flags on an MMLU-layout file", () => {
  it("--format letters finishes, coverage in band", async () => {
    const { summary, stderr } = await checkRun(["--format", "letters"]);
    expect(stderr).toMatch(/prompts: letters \(sha256:/);
    expect(summary.test.n).toBe(40);
  }, E2E_TIMEOUT_MS);

  it("--num-fewshot 3 --fewshot FILE finishes, the exemplars left out of every part of the split", async () => {
    const { summary, stderr } = await checkRun(["--num-fewshot", "3", "--fewshot", fewshot]);
    expect(stderr).toMatch(/few-shot: 3 dataset item\(s\) are exemplars and are left out/);
    expect(stderr).toMatch(/prompts: cloze, 3-shot/);
    expect(summary.dataset.items).toBe(157);
  }, E2E_TIMEOUT_MS);
});
