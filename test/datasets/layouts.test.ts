// Each published layout parsed from a small fixture written in that layout (test/datasets/fixtures),
// and malformed records rejected with the line (or Parquet row) and the field named.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parquetWriteBuffer } from "hyparquet-writer";
import { describe, expect, it } from "vitest";
import {
  hellaswagClean, importJsonLines, importParquet, loadDataset, type MultipleChoiceItem,
} from "../../src/datasets/index.js";

const FIX = join(import.meta.dirname, "fixtures");
const mc = async (file: string, options = {}) => {
  const ds = await loadDataset(join(FIX, file), options);
  expect(ds.kind).toBe("multiple_choice");
  return ds.items as MultipleChoiceItem[];
};
const lines = (...rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n");

describe("MMLU (cais/mmlu)", () => {
  it("reads the JSON Lines, Parquet and CSV layouts into the same items", async () => {
    const jsonl = await mc("mmlu.jsonl");
    expect(jsonl).toHaveLength(6);
    expect(jsonl[0]).toEqual({
      id: "mmlu:1", context: "", question: "Which planet in the solar system is closest to the Sun?",
      options: { A: "Venus", B: "Mercury", C: "Mars", D: "Earth" }, answer: "B", group: "astronomy", subject: "astronomy",
    });
    expect(jsonl.map((i) => i.answer)).toEqual(["B", "B", "C", "B", "A", "D"]);
    const parquet = await mc("mmlu.parquet");
    expect(parquet).toEqual(jsonl); // ids are <stem>:<line> and <stem>:<row>: the same here
    const csv = await mc("mmlu.csv");
    expect(csv.slice(0, 2).map(({ question, options, answer }) => ({ question, options, answer })))
      .toEqual(jsonl.slice(0, 2).map(({ question, options, answer }) => ({ question, options, answer })));
    expect(csv[2]!.question).toBe("Which gas, taken from the air, do plants use for photosynthesis?");
  });
  it("names the Parquet row and field of a bad record", async () => {
    const buffer = parquetWriteBuffer({ columnData: [
      { name: "question", data: ["ok?", "bad?"], type: "STRING" },
      { name: "choices", data: [["a", "b"], ["a", "b"]], type: "JSON" },
      { name: "answer", data: [1n, 7n], type: "INT64" },
    ] });
    await expect(importParquet(new Uint8Array(buffer), "m.parquet")).rejects.toThrow(/m\.parquet, row 2, field "answer": index 7 is outside 0\.\.1/);
    await expect(importParquet(new TextEncoder().encode("not parquet at all"), "x.parquet")).rejects.toThrow(/x\.parquet: not a readable Parquet file/);
  });
});

describe("ARC (allenai/ai2_arc)", () => {
  it("keeps the published labels as option names, letters or digits, 3 to 5 choices", async () => {
    for (const file of ["arc.jsonl", "arc.parquet"]) {
      const items = await mc(file);
      expect(items.map((i) => [i.id, i.answer, Object.keys(i.options).length])).toEqual([
        ["Mercury_7001", "B", 4], ["Mercury_7002", "C", 4], ["NYSEDREGENTS_2003_4_11", "2", 4], ["ACTAAP_2010_5_3", "A", 3], ["MCAS_2004_8_21", "C", 5],
      ]);
      expect(items[2]).toEqual({
        id: "NYSEDREGENTS_2003_4_11", context: "", question: "Which form of energy does a solar panel capture?",
        options: { 1: "sound", 2: "light", 3: "chemical", 4: "nuclear" }, answer: "2",
      });
    }
  });
  it("names the line and field of a bad record", () => {
    const row = { id: "x", question: "q?", choices: { text: ["a", "b"], label: ["A", "B"] }, answerKey: "A" };
    expect(() => importJsonLines(lines(row, { ...row, id: "y", answerKey: "E" }), "arc.jsonl"))
      .toThrow(/arc\.jsonl, line 2, field "answerKey": "E" is not one of the options A, B \(read as the arc layout/);
    expect(() => importJsonLines(lines(row, { ...row, id: "y", choices: { text: ["a", "b"], label: ["A"] } }), "arc.jsonl"))
      .toThrow(/line 2, field "choices\.label": names 1 options but choices\.text holds 2/);
    expect(() => importJsonLines(lines(row, { ...row, id: "y", choices: { text: ["a", 3], label: ["A", "B"] } }), "arc.jsonl"))
      .toThrow(/line 2, field "choices\.text\[1\]": must be a string, got number/);
  });
});

describe("HellaSwag (Rowan/hellaswag)", () => {
  it("builds lm-eval's query and endings, labels as strings or integers", async () => {
    const items = await mc("hellaswag.jsonl");
    expect(items[0]).toEqual({
      id: "14", context: "Washing dishes: A woman stands at a kitchen sink full of plates. She",
      options: {
        A: "turns on the tap and rinses the first plate.", B: "jumps onto the roof of the house.",
        C: "plays a violin solo for the plates.", D: "reads the newspaper to the fish.",
      },
      answer: "A", group: "Washing dishes",
    });
    // WikiHow artefacts: " [title]" → ". ", "[...]" removed, double spaces halved once.
    expect(items[1]!.context).toBe("Making a paper airplane: How to make a paper airplane. Fold the paper in half. Then");
    // lm-eval strips before it removes "[step]", so such an ending keeps a leading space: kept byte for byte.
    expect(items[1]!.options).toEqual({ A: " bake the paper at high heat.", B: " unfold it and fold the top corners to the center line.", C: "paint the sky green.", D: " throw the stapler away." });
    // Python's capitalize() lower-cases the rest: "The Starter" → "The starter".
    expect(items[2]!.context).toBe("Running a marathon: Runners gather at the start line of a city race. The starter");
    expect(items[3]!.context).toBe("Brushing teeth: A boy squeezes toothpaste onto a brush.");
    expect(items.map((i) => i.answer)).toEqual(["A", "B", "B", "C"]);
    const original = { ind: 5, activity_label: "Cooking", ctx_a: "A man cuts onions.", ctx_b: "he", endings: ["cries.", "flies.", "sings.", "dives."], label: 0 };
    expect((importJsonLines(lines(original), "h.jsonl").items[0] as MultipleChoiceItem).answer).toBe("A");
    expect(hellaswagClean("  a [step] b  [title] c ")).toBe("a b . c"); // as Python computes it
  });
  it("refuses the unlabelled test split and a label out of range, naming line and field", () => {
    const row = { ind: 1, activity_label: "A", ctx_a: "x.", ctx_b: "y", endings: ["a", "b", "c", "d"], label: "1" };
    expect(() => importJsonLines(lines(row, { ...row, ind: 2, label: "" }), "h.jsonl")).toThrow(/line 2, field "label": is empty \(the test split of HellaSwag is unlabelled\)/);
    expect(() => importJsonLines(lines(row, { ...row, ind: 2, label: 4 }), "h.jsonl")).toThrow(/line 2, field "label": must be an index 0\.\.3 into endings, got 4/);
    expect(() => importJsonLines(lines({ ...row, endings: "abcd" }), "h.jsonl")).toThrow(/line 1, field "endings": must be a list of strings/);
  });
});

describe("TruthfulQA multiple choice (truthful_qa)", () => {
  it("reads mc1_targets: the choice labelled 1 is the gold, mc2 ignored", async () => {
    const items = await mc("truthfulqa_mc1.jsonl");
    expect(items.map((i) => [Object.keys(i.options).length, i.answer])).toEqual([[4, "A"], [3, "A"], [5, "A"]]);
    expect(items[0]).toMatchObject({ id: "truthfulqa_mc1:1", question: "What happens if you swallow chewing gum?", options: { A: "It passes through your digestive system." } });
  });
  it("refuses labels marking no or two true choices", () => {
    const row = { question: "q?", mc1_targets: { choices: ["a", "b", "c"], labels: [0, 1, 1] } };
    expect(() => importJsonLines(lines(row), "t.jsonl")).toThrow(/t\.jsonl, line 1, field "mc1_targets\.labels": must mark exactly one true choice, marks 2/);
    expect(() => importJsonLines(lines({ ...row, mc1_targets: { choices: ["a", "b"], labels: [1] } }), "t.jsonl")).toThrow(/field "mc1_targets\.labels": holds 1 labels for 2 choices/);
  });
});

describe("CommonsenseQA (tau/commonsense_qa)", () => {
  it("reads the Hub layout and the authors' original layout into the same items", async () => {
    const hub = await mc("commonsense_qa.jsonl");
    expect(hub[0]).toEqual({
      id: "a1b2c3d4e5f60718293a4b5c6d7e8f90", context: "", question: "Where would you keep milk so that it stays cold?",
      options: { A: "oven", B: "refrigerator", C: "bookshelf", D: "mailbox", E: "garden" }, answer: "B", group: "milk",
    });
    const original = await mc("commonsense_qa-original.jsonl");
    expect(original).toEqual(hub.slice(0, 2));
  });
  it("names the field of a bad original record", () => {
    const row = { answerKey: "A", id: "z", question: { stem: "s?", choices: [{ label: "A", text: "x" }, { label: "B" }] } };
    expect(() => importJsonLines(lines(row), "c.jsonl")).toThrow(/line 1, field "question\.choices\[1\]\.text": must be a string, got nothing|line 1, field "question\.choices\[1\]\.text"/);
  });
});

describe("generic JSON Lines through a field mapping", () => {
  const fields = { question: "prompt", choices: "opts", answer: "gold", id: "uid", group: "meta.topic" };
  it("maps question, options, gold (text, index or letter), id and a nested group", async () => {
    const items = await mc("custom.jsonl", { fields });
    expect(items).toEqual([
      { id: "101", context: "", question: "The capital of France is", options: { A: "Berlin", B: "Paris", C: "Madrid" }, answer: "B", group: "geography" },
      { id: "102", context: "", question: "The longest river in Africa is", options: { A: "the Nile", B: "the Thames", C: "the Danube" }, answer: "A", group: "geography" },
      { id: "103", context: "", question: "Two plus three equals", options: { A: "four", B: "five", C: "six" }, answer: "B", group: "arithmetic" },
    ]);
  });
  it("names the line and the mapped field of a bad record, and refuses an unknown layout", async () => {
    const text = (await readFile(join(FIX, "custom.jsonl"), "utf8")) + JSON.stringify({ uid: 104, prompt: "p", opts: ["x", "y"], gold: "zebra" }) + "\n";
    expect(() => importJsonLines(text, "custom.jsonl", { fields })).toThrow(/custom\.jsonl, line 4, field "gold": "zebra" is not one of the options A, B \(read as the field mapping\)/);
    expect(() => importJsonLines(text, "custom.jsonl", { fields: { ...fields, choices: "options" } })).toThrow(/line 1, field "options": is missing/);
    expect(() => importJsonLines(text, "custom.jsonl", { layout: "squad" })).toThrow(/field "layout": unknown layout "squad"; use one of auto, calibkit, mmlu, truthfulqa_mc1, hellaswag, commonsense_qa, arc/);
  });
  it("reads a named layout even where detection would not pick it", () => {
    const row = { id: "r", question: "q?", choices: { text: ["a", "b"], label: ["A", "B"] }, answerKey: "B", question_concept: "c" };
    expect((importJsonLines(lines(row), "x.jsonl", { layout: "arc" }).items[0] as MultipleChoiceItem).group).toBeUndefined();
    expect((importJsonLines(lines(row), "x.jsonl").items[0] as MultipleChoiceItem).group).toBe("c");
  });
});
