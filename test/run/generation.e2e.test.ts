// Free-form answers end to end on stories260K and the bundled generation fixture (issue 27): `calibkit run --task
// generic --samples 5` grades every item, computes every scorer the model's level allows but the pairwise ones
// (every one with --scorers all), answers gate and belief and claim queries with 0 cross-check disagreements and
// nothing unchecked, writes items.jsonl; a second run with another α or another query type makes no model call, and
// one that asks for the pairwise scorers judges only them (one batch an item), generating nothing again; a run
// killed with SIGKILL mid-generation and restarted writes the items.jsonl of an uninterrupted run.
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { QueryRunSummary } from "../../src/report/index.js";
import { onRequest } from "../../src/run/queryTypes/generation.js";
import { SCORERS } from "../../src/uncertainty/index.js";
import { GGUF, runCalibkit } from "../cliProcess.js";

const LIMIT = "24";
const BASE = ["run", "--model", GGUF, "--task", "generic", "--samples", "5", "--limit", LIMIT, "--seed", "3", "--quiet"];

interface Line { id: string; split: string; prompt: string; greedy: string; samples: string[]; correct: boolean; grader: string; scores: Record<string, number | null>; answer: unknown }

const linesOf = async (dir: string): Promise<Line[]> => (await readFile(join(dir, "items.jsonl"), "utf8")).trim().split("\n").map((l) => JSON.parse(l) as Line);
const summaryOf = async (dir: string) => JSON.parse(await readFile(join(dir, "summary.json"), "utf8")) as QueryRunSummary;

describe("calibkit run --task generic on stories260K", () => {
  it("grades every item, computes every scorer the level allows, gate, belief and claim with 0 disagreements; another α or type makes 0 model calls", async () => {
    const base = await mkdtemp(join(tmpdir(), "calibkit-generation-e2e-"));
    const cache = join(base, "cache");
    const first = await runCalibkit([...BASE, "--query-type", "gate", "--alpha", "0.2", "--cache", cache, "--out", join(base, "gate")]);
    expect(first.code, first.stderr + first.stdout).toBe(0);
    const s = await summaryOf(join(base, "gate"));
    expect(s.crossCheck.disagreements).toEqual([]);
    expect(s.crossCheck.unchecked).toEqual({});
    expect(s.crossCheck.answers).toBe(s.split.test);
    const lines = await linesOf(join(base, "gate"));
    expect(lines).toHaveLength(Number(LIMIT));
    // One row per distinct prompt: an item whose prompt an earlier item had reads that item's row.
    expect(s.evidenceCache!.computed).toBe(new Set(lines.map((l) => l.prompt)).size);
    expect(s.evidenceCache!.hits + s.evidenceCache!.computed).toBe(Number(LIMIT));
    // The file's order is the dataset's: answer-00001, answer-00002, …
    expect(lines.map((l) => l.id)).toEqual([...lines.map((l) => l.id)].sort());
    // stories260K in llama.cpp is L4 (full distributions and embeddings): every scorer but Verbalized1S, which reads
    // a confidence the prompt must ask for, and the pairwise ones (the full entailment matrix, the greedy answer
    // against each sample), computed only when named.
    const expected = SCORERS.filter((x) => !onRequest(x)).map((x) => x.name).sort();
    expect(expected).toContain("SemanticEntropy");
    expect(expected).not.toContain("EigValLaplacian_NLI_score_entail");
    for (const l of lines) {
      expect(typeof l.correct).toBe("boolean");
      expect(l.grader).toBe("f1>=0.5");
      expect(l.samples).toHaveLength(5);
      expect(Object.keys(l.scores).sort()).toEqual(expected);
      expect(l.answer === null).toBe(l.split === "calibration");
    }
    expect(s.section.generation).toMatchObject({ task: "generic", grader: "generic: f1>=0.5", scorer: "MaximumSequenceProbability", samples: 5 });
    expect(s.section.generation!.scorers.map((m) => m.scorer).sort()).toEqual(expected);

    // Another α, then belief queries, on the same cache: no model call, the same generations and scores.
    const again = await runCalibkit([...BASE, "--query-type", "gate", "--alpha", "0.3", "--cache", cache, "--out", join(base, "gate2")]);
    expect(again.code, again.stderr).toBe(0);
    const s2 = await summaryOf(join(base, "gate2"));
    expect(s2.evidenceCache).toMatchObject({ hits: Number(LIMIT), computed: 0, modelCalls: 0 });
    expect(s2.crossCheck.disagreements).toEqual([]);
    const strip = (ls: Line[]) => ls.map(({ answer: _a, ...rest }) => rest);
    expect(strip(await linesOf(join(base, "gate2")))).toEqual(strip(lines));

    const belief = await runCalibkit([...BASE, "--query-type", "belief", "--scorer", "SemanticEntropy", "--cache", cache, "--out", join(base, "belief")]);
    expect(belief.code, belief.stderr).toBe(0);
    const b = await summaryOf(join(base, "belief"));
    expect(b.evidenceCache).toMatchObject({ computed: 0, modelCalls: 0 });
    expect(b.crossCheck.disagreements).toEqual([]);
    expect(b.crossCheck.unchecked).toEqual({});
    expect(b.section.generation!.scorer).toBe("SemanticEntropy");

    // claim: the greedy answer's sentences scored by their frequency across the answers, from the same rows.
    const claim = await runCalibkit([...BASE, "--query-type", "claim", "--cache", cache, "--out", join(base, "claim")]);
    expect(claim.code, claim.stderr).toBe(0);
    const c = await summaryOf(join(base, "claim"));
    expect(c.evidenceCache).toMatchObject({ computed: 0, modelCalls: 0 });
    expect(c.crossCheck.disagreements).toEqual([]);
    expect(c.crossCheck.unchecked).toEqual({});
    expect(c.crossCheck.answers).toBe(c.split.test);

    // --scorers all: every scorer the level allows; the answers come from the cache and only the pairwise
    // statistics are judged, each item's prompts in one batch.
    const all = await runCalibkit([...BASE, "--query-type", "gate", "--scorers", "all", "--cache", cache, "--out", join(base, "all")]);
    expect(all.code, all.stderr).toBe(0);
    const a = await summaryOf(join(base, "all"));
    expect(a.evidenceCache).toMatchObject({ hits: Number(LIMIT), computed: 0, modelCalls: new Set(lines.map((l) => l.prompt)).size });
    expect(a.crossCheck.disagreements).toEqual([]);
    const everyScorer = SCORERS.filter((x) => x.name !== "Verbalized1S").map((x) => x.name).sort();
    for (const l of await linesOf(join(base, "all"))) expect(Object.keys(l.scores).sort()).toEqual(everyScorer);
  }, 600_000);

  it("killed with SIGKILL mid-generation and restarted, writes the items.jsonl of an uninterrupted run", async () => {
    const base = await mkdtemp(join(tmpdir(), "calibkit-generation-kill-"));
    const args = [...BASE.filter((a) => a !== "--quiet"), "--query-type", "gate"];
    const whole = await runCalibkit([...args, "--cache", join(base, "c1"), "--out", join(base, "whole")]);
    expect(whole.code, whole.stderr).toBe(0);
    const killed = await runCalibkit([...args, "--cache", join(base, "c2"), "--out", join(base, "killed")], {}, (text, kill) => {
      if (/evidence: ([6-9]|1\d)\//.test(text)) kill("SIGKILL");
    });
    expect(killed.signal).toBe("SIGKILL");
    const resumed = await runCalibkit([...args, "--cache", join(base, "c2"), "--out", join(base, "killed")]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const r = await summaryOf(join(base, "killed"));
    expect(r.evidenceCache!.hits).toBeGreaterThan(0);
    expect(r.evidenceCache!.computed).toBeLessThan(Number(LIMIT));
    expect(await readFile(join(base, "killed", "items.jsonl"), "utf8")).toBe(await readFile(join(base, "whole", "items.jsonl"), "utf8"));
  }, 600_000);
});
