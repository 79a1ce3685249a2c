// fixtures/arc-mixed.jsonl: regenerated from its seeded generator byte for byte, read back through the ARC
// layout with 3, 4 and 5 options in turn, the gold among the options and never a distractor the story names.
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { rngFromString } from "../../src/conformal/numeric/rng.js";
import { arcMixedRecords, generateStoryCloze, importJsonLines, type MultipleChoiceItem } from "../../src/datasets/index.js";

describe("fixtures/arc-mixed.jsonl", () => {
  it("is what scripts/generate-datasets.ts writes (seed 20240601), byte for byte", async () => {
    const cloze = generateStoryCloze(600, rngFromString("20240601/story-cloze"));
    const text = arcMixedRecords(cloze, rngFromString("20240601/arc-mixed")).map((r) => JSON.stringify(r) + "\n").join("");
    expect(text).toBe(await readFile("fixtures/arc-mixed.jsonl", "utf8"));
  });

  it("reads as ARC: 200 items each of 3, 4 and 5 options, the gold one of them, labels A–E or 1–K", async () => {
    const dataset = importJsonLines(await readFile("fixtures/arc-mixed.jsonl", "utf8"), "arc-mixed.jsonl");
    expect(dataset.kind).toBe("multiple_choice");
    const items = dataset.items as MultipleChoiceItem[];
    const counts = new Map<number, number>();
    for (const item of items) {
      const names = Object.keys(item.options);
      counts.set(names.length, (counts.get(names.length) ?? 0) + 1);
      expect(names).toContain(item.answer);
      expect(new Set(Object.values(item.options)).size).toBe(names.length);
      expect(["ABCDE".slice(0, names.length), Array.from({ length: names.length }, (_, j) => String(j + 1)).join("")]).toContain(names.join(""));
    }
    expect([...counts].sort()).toEqual([[3, 200], [4, 200], [5, 200]]);
    expect(items.filter((i) => Object.keys(i.options)[0] === "1").length).toBeGreaterThan(10);
  });
});
