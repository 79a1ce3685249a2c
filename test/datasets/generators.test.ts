import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { mulberry32, rngFromString } from "../../src/conformal/numeric/rng.js";
import {
  generateClaims, generateOrdinal, generatePassFail, generateStoryCloze, OPTION_NAMES, splitDataset, toJsonLines,
} from "../../src/datasets/index.js";

describe("story-cloze generator", () => {
  it("is seeded and growable: a larger n extends a smaller set", () => {
    const small = generateStoryCloze(50, mulberry32(7));
    const big = generateStoryCloze(80, mulberry32(7));
    expect(big.slice(0, 50)).toEqual(small);
  });
  it("gives 4 distinct options, the gold among them, and no distractor that the story names", () => {
    for (const item of generateStoryCloze(1000, mulberry32(1))) {
      expect(Object.keys(item.options)).toEqual([...OPTION_NAMES]);
      const words = Object.values(item.options);
      expect(new Set(words).size).toBe(4);
      expect(OPTION_NAMES).toContain(item.answer);
      const story = `${item.context} ${item.question}`;
      const forced = item.group!.startsWith("bind-") || item.group === "order-places" ? 1 : 0;
      const named = Object.entries(item.options).filter(([n, w]) => n !== item.answer && new RegExp(`\\b${w}\\b`).test(story));
      expect(named.length).toBe(forced);
    }
  });
  it("places the gold answer evenly over A–D", () => {
    const counts = new Map<string, number>();
    for (const i of generateStoryCloze(2000, mulberry32(3))) counts.set(i.answer, (counts.get(i.answer) ?? 0) + 1);
    for (const name of OPTION_NAMES) expect(counts.get(name)!).toBeGreaterThan(420);
  });
  it("the bundled fixture is exactly what the script's seed regenerates", async () => {
    const text = await readFile("fixtures/story-cloze.jsonl", "utf8");
    const n = text.trimEnd().split("\n").length;
    expect(n).toBeGreaterThanOrEqual(2000);
    expect(toJsonLines(generateStoryCloze(n, rngFromString("20240601/story-cloze")))).toBe(text);
  });
});

describe("other generators", () => {
  it("ordinal answers are levels the story names for that thing", () => {
    for (const i of generateOrdinal(300, mulberry32(2))) {
      expect(i.levels).toContain(i.answer);
      expect(i.context).toContain(`${i.answer} ${/the (\w+)\?/.exec(i.question!)![1]}`);
    }
  });
  it("claims and pass/fail statements are true exactly when labelled so", () => {
    for (const i of generateClaims(300, mulberry32(4))) {
      for (const c of i.claims) expect(c.correct).toBe(truthOf(c.text, i.context));
    }
    for (const i of generatePassFail(300, mulberry32(5))) expect(i.answer === "pass").toBe(truthOf(i.question, i.context));
  });
  it("splits into disjoint seeded parts, shrinking in proportion for a small dataset", () => {
    const items = Array.from({ length: 100 }, (_, i) => i);
    const s = splitDataset(items, { calibration: 100, test: 50, audit: 30, monitor: 20 }, mulberry32(9));
    const all = [...s.calibration, ...s.test, ...s.audit, ...s.monitor];
    expect(new Set(all).size).toBe(100);
    expect([s.calibration.length, s.test.length, s.audit.length, s.monitor.length]).toEqual([50, 25, 15, 10]);
    expect(splitDataset(items, { calibration: 10, test: 5, audit: 0, monitor: 0 }, mulberry32(9))).toEqual(
      splitDataset(items, { calibration: 10, test: 5, audit: 0, monitor: 0 }, mulberry32(9)),
    );
  });
});

/** The statement generators' sentences, checked against the story's own sentences. */
function truthOf(statement: string, story: string): boolean {
  const color = /^The (\w+) was (\w+)\.$/.exec(statement);
  if (color) return story.includes(`${color[2]} ${color[1]}.`);
  const toy = /^\w+ had a (\w+)\.$/.exec(statement);
  if (toy) return new RegExp(`had a \\w+ ${toy[1]}\\.`).test(story);
  return story.includes(statement);
}
