// Free-form runs graded by a judge model and claims scored by p(True) (issue 27, points 4 and 6), end to end on
// stories260K and the bundled generation fixture: with --grader judge every item is graded by the judge (the run's
// own model, or a `calibkit serve-model` stage on loopback), each verdict is the judge's p(yes) as the adapter
// gives it for that prompt, the grader is named in items.jsonl, summary.json and the report, the cross-check finds
// no disagreement, and another α makes no model call; a claim run with --claim-score p_true sends each claim's
// p("True") after lm-polygraph's claim-level prompt.
import { existsSync } from "node:fs";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLlamaCppAdapter, createOpenAICompatibleAdapter, type ModelAdapter } from "../../src/adapters/index.js";
import { answerJudgeText, pTrueClaimText } from "../../src/evidence/index.js";
import type { QueryRunSummary } from "../../src/report/index.js";
import { GGUF, runCalibkit } from "../cliProcess.js";
import { spawnCalibkit, type Spawned } from "../service/helpers.js";

const LIMIT = 16;
const BASE = ["run", "--model", GGUF, "--task", "generic", "--samples", "5", "--limit", String(LIMIT), "--seed", "3", "--quiet"];

interface Line {
  id: string; prompt: string; greedy: string; correct: boolean; grader: string; judge?: { p_yes: number[] };
  claims?: { text: string; score: number; correct: boolean }[];
}

async function run(args: string[]): Promise<{ s: QueryRunSummary; lines: Line[]; html: string }> {
  const out = await mkdtemp(join(tmpdir(), "calibkit-judge-e2e-"));
  const r = await runCalibkit([...BASE, ...args, "--out", out]);
  expect(r.code, r.stderr + r.stdout).toBe(0);
  return {
    s: JSON.parse(await readFile(join(out, "summary.json"), "utf8")) as QueryRunSummary,
    lines: (await readFile(join(out, "items.jsonl"), "utf8")).trim().split("\n").map((l) => JSON.parse(l) as Line),
    html: await readFile(join(out, "report.html"), "utf8"),
  };
}

function expectChecked(s: QueryRunSummary): void {
  expect(s.crossCheck.disagreements).toEqual([]);
  expect(s.crossCheck.unchecked).toEqual({});
  expect(s.crossCheck.answers).toBe(s.split.test);
}

/** p(yes) over {yes, no} as the adapter scores the judge prompt alone. */
async function pYes(adapter: ModelAdapter, prompt: string): Promise<number> {
  const [[yes, no]] = (await adapter.scoreContinuations([{ prefix: prompt, continuations: [" yes", " no"] }])) as [number[]];
  return 1 / (1 + Math.exp(no! - yes!));
}

const references = async (): Promise<Map<string, string[]>> => new Map((await readFile("fixtures/story-answers.jsonl", "utf8")).trim().split("\n")
  .map((l) => JSON.parse(l) as { id: string; references: string[] | string }).map((r) => [r.id, [r.references].flat()]));

describe.skipIf(!existsSync(GGUF))("free-form runs with the judge grader and p(True) claim scores", () => {
  let local: ModelAdapter;
  let served: Spawned;
  let remote: ModelAdapter;
  beforeAll(async () => {
    local = await createLlamaCppAdapter({ modelPath: GGUF, gpu: false });
    served = await spawnCalibkit(["serve-model", "--model", GGUF, "--threads", "1"], 60_000);
    remote = await createOpenAICompatibleAdapter({ baseUrl: served.url });
  }, 90_000);
  afterAll(async () => {
    await remote?.dispose();
    await served?.stop();
    await local?.dispose();
  });

  it("--grader judge (the run's own model): every item graded by the judge, named everywhere, 0 disagreements; another α makes 0 calls", async () => {
    const cache = await mkdtemp(join(tmpdir(), "calibkit-judge-cache-"));
    const { s, lines, html } = await run(["--grader", "judge", "--alpha", "0.2", "--cache", cache]);
    expectChecked(s);
    const refs = await references();
    expect(lines).toHaveLength(LIMIT);
    for (const l of lines) {
      expect(l.grader).toBe("judge:answer-match/v1");
      expect(l.judge!.p_yes).toHaveLength(refs.get(l.id)!.length);
      expect(l.correct).toBe(Math.max(...l.judge!.p_yes) > 0.5);
    }
    // Two verdicts against the model's own p(yes) for the prompt alone (the fixture's prompt is its story text).
    for (const l of lines.slice(0, 2)) {
      const answer = l.greedy.split(/[.\n]/)[0]!.trim();
      expect(l.judge!.p_yes[0]).toBeCloseTo(await pYes(local, answerJudgeText(l.prompt, refs.get(l.id)![0]!, answer)), 2);
    }
    expect(s.section.generation!.grader).toBe(`generic: judge:answer-match/v1 by ${GGUF}`);
    expect(html).toContain("judge:answer-match/v1");
    const again = await run(["--grader", "judge", "--alpha", "0.3", "--cache", cache]);
    expect(again.s.evidenceCache).toMatchObject({ computed: 0, modelCalls: 0 });
    expectChecked(again.s);
    expect(again.lines.map((l) => l.correct)).toEqual(lines.map((l) => l.correct));
  }, 600_000);

  it("--judge-stage: a serve-model server judges over HTTP, its verdicts the server's own p(yes)", async () => {
    const { s, lines } = await run(["--grader", "judge", "--stage", `judge=${served.url}@1`, "--judge-stage", "judge", "--query-type", "belief", "--no-cache"]);
    expectChecked(s);
    const refs = await references();
    for (const l of lines) expect(l.grader).toBe("judge:answer-match/v1");
    expect(s.section.generation!.grader).toBe(`generic: judge:answer-match/v1 by judge=${served.url}`);
    for (const l of lines.slice(0, 2)) {
      const answer = l.greedy.split(/[.\n]/)[0]!.trim();
      expect(l.judge!.p_yes[0]).toBeCloseTo(await pYes(remote, answerJudgeText(l.prompt, refs.get(l.id)![0]!, answer)), 3);
    }
    const missing = await runCalibkit([...BASE, "--grader", "judge", "--judge-stage", "nowhere", "--no-cache"]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/--judge-stage: "nowhere" names no --stage server/);
  }, 600_000);

  it("--query-type claim --claim-score p_true: each claim's score is the model's p(\"True\"), 0 disagreements", async () => {
    const { s, lines } = await run(["--query-type", "claim", "--claim-score", "p_true", "--no-cache"]);
    expectChecked(s);
    expect(s.section.generation!.scorer).toBe("claim p(True) (p_true_claim/lm-polygraph)");
    const claims = lines.flatMap((l) => (l.claims ?? []).map((c) => ({ ...c, prompt: l.prompt })));
    expect(claims.length).toBeGreaterThanOrEqual(2);
    for (const c of claims.slice(0, 2)) {
      const [[lp]] = (await local.scoreContinuations([{ prefix: pTrueClaimText(c.prompt, c.text), continuations: ["True"] }])) as [number[]];
      expect(c.score).toBeGreaterThan(0);
      expect(Math.log(c.score)).toBeCloseTo(lp!, 2);
    }
  }, 600_000);
});
