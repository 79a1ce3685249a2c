// `calibkit run --task generic --query-type route` on stories260K and the bundled generation fixture (issue 27,
// point 6): the run's own greedy answer, with its scorer's confidence, approved or escalated to a `calibkit
// serve-model` stage under a cost guarantee; 0 cross-check disagreements and nothing unchecked, the mean cost in
// its band, items.jsonl with the service's route answers; another α and budget make no model call; no --stage
// is refused naming the flag.
import { existsSync } from "node:fs";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RouteAnswer } from "../../src/api/index.js";
import type { QueryRunSummary } from "../../src/report/index.js";
import { spawnCalibkit, type Spawned } from "../service/helpers.js";
import { GGUF, runCalibkit } from "../cliProcess.js";

const LIMIT = 24;
const BASE = ["run", "--model", GGUF, "--task", "generic", "--samples", "5", "--limit", String(LIMIT), "--seed", "3", "--query-type", "route", "--quiet"];
const OWN = "llama.cpp:stories260K.gguf";

interface Line { id: string; split: string; greedy: string; correct: boolean; scores: Record<string, number | null>; answer: RouteAnswer | null }

let model: Spawned | undefined;
beforeAll(async () => {
  if (existsSync(GGUF)) model = await spawnCalibkit(["serve-model", "--model", GGUF, "--threads", "1"], 60_000);
}, 90_000);
afterAll(async () => {
  await model?.stop();
});

const linesOf = async (dir: string): Promise<Line[]> => (await readFile(join(dir, "items.jsonl"), "utf8")).trim().split("\n").map((l) => JSON.parse(l) as Line);
const summaryOf = async (dir: string) => JSON.parse(await readFile(join(dir, "summary.json"), "utf8")) as QueryRunSummary;

describe.skipIf(!existsSync(GGUF))("calibkit run --task generic --query-type route", () => {
  it("approves the own answer or escalates to the stage: 0 disagreements, nothing unchecked, cost in band; another α makes 0 model calls", async () => {
    const base = await mkdtemp(join(tmpdir(), "calibkit-generation-route-"));
    const cache = join(base, "cache");
    const stage = ["--stage", `big=${model!.url}@1`];
    const first = await runCalibkit([...BASE, ...stage, "--cache", cache, "--out", join(base, "r1")]);
    expect(first.code, first.stderr + first.stdout).toBe(0);
    const s = await summaryOf(join(base, "r1"));
    expect(s.queryType).toBe("route");
    expect(s.crossCheck.disagreements).toEqual([]);
    expect(s.crossCheck.unchecked).toEqual({});
    expect(s.crossCheck.answers).toBe(s.split.test);
    expect(s.section.quantity).toBe("mean cost per test query (cents)");
    expect(s.section.inBand).toBe(true);
    expect(s.section.value).toBeLessThanOrEqual(s.section.band[1]);
    const rate = (name: string) => s.section.rates.find((r) => r.name === name)?.value;
    const ownShare = rate(`served by ${OWN}`)!;
    const bigShare = rate("served by big")!;
    expect(ownShare + bigShare).toBeCloseTo(1, 12);
    expect(rate("escalation rate")).toBeCloseTo(bigShare, 12);
    expect(rate("accuracy of the served outputs")).toBeGreaterThanOrEqual(0);
    expect(s.section.generation).toMatchObject({ task: "generic", scorer: "MaximumSequenceProbability", samples: 5 });
    // The own model's answers and the stage's output on every item, into the cache (a prompt two items share is
    // sent to the stage once).
    expect(s.evidenceCache!.hits + s.evidenceCache!.computed).toBe(2 * LIMIT);
    expect(s.evidenceCache!.computed).toBeGreaterThan(LIMIT);

    const lines = await linesOf(join(base, "r1"));
    expect(lines).toHaveLength(LIMIT);
    for (const l of lines) {
      expect(l.answer === null).toBe(l.split === "calibration");
      if (!l.answer) continue;
      expect(l.answer.type).toBe("route");
      expect(l.answer.guarantee).toMatchObject({ kind: "cost_budget" });
      expect(l.answer.stages![0]!.stage).toBe(OWN);
      // Served by the own model, the answer is its greedy one at no cost; else the stage's, at its price.
      if (l.answer.served_by === OWN) expect(l.answer).toMatchObject({ output: l.greedy, escalated: false, cost_cents: 0 });
      else expect(l.answer).toMatchObject({ served_by: "big", escalated: true, cost_cents: 1 });
    }

    // Another α and budget: every greedy answer, score and stage output from the cache, no model call.
    const again = await runCalibkit([...BASE, ...stage, "--alpha", "0.3", "--target", "0.8", "--cache", cache, "--out", join(base, "r2")]);
    expect(again.code, again.stderr).toBe(0);
    const s2 = await summaryOf(join(base, "r2"));
    expect(s2.evidenceCache).toMatchObject({ hits: 2 * LIMIT, computed: 0, modelCalls: 0 });
    expect(s2.crossCheck.disagreements).toEqual([]);
    expect(s2.crossCheck.unchecked).toEqual({});
    expect(s2.section.target).toBe(0.8);
    expect(s2.section.inBand).toBe(true);
    const strip = (ls: Line[]) => ls.map(({ answer: _a, ...rest }) => rest);
    expect(strip(await linesOf(join(base, "r2")))).toEqual(strip(lines));

    // The accuracy guarantee over the same rows: the served outputs' accuracy is measured against 1 − α.
    const accuracy = await runCalibkit([...BASE, ...stage, "--guarantee", "accuracy", "--alpha", "0.6", "--cache", cache, "--out", join(base, "r3")]);
    expect(accuracy.code, accuracy.stderr).toBe(0);
    const s3 = await summaryOf(join(base, "r3"));
    expect(s3.evidenceCache).toMatchObject({ computed: 0, modelCalls: 0 });
    expect(s3.section.quantity).toBe("accuracy of the served outputs");
    expect(s3.crossCheck.disagreements).toEqual([]);
    expect(s3.crossCheck.unchecked).toEqual({});
  }, 600_000);

  it("refuses a route without --stage, naming the flag", async () => {
    const r = await runCalibkit([...BASE, "--no-cache"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/route queries need cascade stages: give --stage NAME=URL/);
  }, 120_000);
});
