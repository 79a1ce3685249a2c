// The bundled generation set (fixtures/story-answers.jsonl) on the bundled model: stories260K, greedy, through
// the generic task's prompts and grade, gets it partly right — every copying template right, the sand castle
// never — so a gate has both kinds of answers to learn from. The file is the seeded generator's output.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAdapter, type ModelAdapter } from "../../src/adapters/index.js";
import { rngFromString } from "../../src/conformal/index.js";
import { generateStoryAnswers, loadDataset, toJsonLines, type GenerationDataset, type GenerationItem } from "../../src/datasets/index.js";
import { GENERATION_TASKS, gradeAnswer } from "../../src/evidence/index.js";
import { generationPrompts } from "../../src/run/index.js";
import { GGUF } from "../cliProcess.js";

const FILE = join(import.meta.dirname, "..", "..", "fixtures", "story-answers.jsonl");

describe("fixtures/story-answers.jsonl", () => {
  it("is the seeded generator's output (npx tsx scripts/generate-datasets.ts), read as generic generation records", async () => {
    expect(await readFile(FILE, "utf8")).toBe(toJsonLines(generateStoryAnswers(600, rngFromString("20240601/story-answers"))));
    const ds = await loadDataset(FILE);
    expect(ds.kind).toBe("generation");
    expect(ds.layout).toBeUndefined();
    const { prompts } = await generationPrompts(ds, { task: "generic" });
    expect(prompts[1]).toEqual({ id: "answer-00002", prompt: "Lily looked up. One day, a little bird was flying in the", rendered: false, until: [".", "\n"], references: ["sky"] });
  });
});

describe("stories260K on the bundled generation set", () => {
  let adapter: ModelAdapter;
  beforeAll(async () => {
    adapter = await openAdapter(GGUF);
  });
  afterAll(async () => adapter?.dispose());

  it("answers partly right: each template's greedy answers graded by the generic task", async () => {
    const ds = (await loadDataset(FILE)) as GenerationDataset;
    const items: GenerationItem[] = ds.items.slice(0, 120);
    const { prompts } = await generationPrompts({ ...ds, items }, { task: "generic" });
    const byTemplate = new Map<string, { n: number; right: number }>();
    for (const [i, p] of prompts.entries()) {
      const [answer] = await adapter.sample(p.prompt, 1, { temperature: 0, maxTokens: 12, stop: p.until });
      const grade = gradeAnswer(GENERATION_TASKS.generic, answer!, items[i]!);
      const t = byTemplate.get(items[i]!.group!) ?? { n: 0, right: 0 };
      t.n++;
      if (grade.correct) t.right++;
      byTemplate.set(items[i]!.group!, t);
    }
    const right = [...byTemplate.values()].reduce((s, t) => s + t.right, 0);
    expect(right / items.length).toBeGreaterThan(0.3);
    expect(right / items.length).toBeLessThan(0.7);
    for (const sure of ["best-friends", "climb-tree", "bird-sky"]) expect(byTemplate.get(sure), sure).toMatchObject({ right: byTemplate.get(sure)!.n });
    for (const never of ["sand-castle", "go-to-bed"]) expect(byTemplate.get(never)?.right, never).toBe(0);
  }, 120_000);
});
