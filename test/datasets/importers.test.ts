import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DatasetError, importJsonLines, importMmluCsv, loadDataset, parseCsv } from "../../src/datasets/index.js";

describe("parseCsv", () => {
  it("handles quotes, doubled quotes, embedded commas and newlines, CRLF, and reports start lines", () => {
    const text = 'a,"b, c","say ""hi"""\r\n"multi\nline",x,y\n\nlast,1,2';
    const recs = parseCsv(text, "t.csv");
    expect(recs).toEqual([
      { line: 1, fields: ["a", "b, c", 'say "hi"'] },
      { line: 2, fields: ["multi\nline", "x", "y"] },
      { line: 5, fields: ["last", "1", "2"] },
    ]);
  });
  it("names the line of an unclosed quote", () => {
    expect(() => parseCsv('ok,1\n"open,2\n', "t.csv")).toThrow(/t\.csv, line 2: a quoted field is never closed/);
  });
});

describe("importMmluCsv", () => {
  it("reads the headerless MMLU layout", () => {
    const items = importMmluCsv('What is 2+2?,3,4,5,6,B\n"Capital of France, briefly?",Paris,Rome,Oslo,Bern,a\n', "algebra_test.csv");
    expect(items).toHaveLength(2);
    // hendrycks/test names each file <subject>_<split>.csv: the subject comes from the name.
    expect(items[0]).toEqual({ id: "algebra_test:1", context: "", question: "What is 2+2?", options: { A: "3", B: "4", C: "5", D: "6" }, answer: "B", group: "algebra", subject: "algebra" });
    expect(items[1]!.answer).toBe("A");
  });
  it("reads a header with a subject column as the group", () => {
    const items = importMmluCsv("subject,question,A,B,C,D,answer\nmath,1+1?,2,3,4,5,A\n", "m.csv");
    expect(items[0]).toMatchObject({ group: "math", question: "1+1?", answer: "A" });
  });
  it("names file, line and field of a bad row", () => {
    const bad = "q1,a,b,c,d,A\nq2,a,b,c,d,E\n";
    expect(() => importMmluCsv(bad, "x.csv")).toThrow(DatasetError);
    expect(() => importMmluCsv(bad, "x.csv")).toThrow(/x\.csv, line 2, field "answer": "E" is not one of the options A, B, C, D/);
    expect(() => importMmluCsv("q1,a,b,c,d\n", "x.csv")).toThrow(/x\.csv, line 1: expected 6 columns/);
    expect(() => importMmluCsv("q1,a,,c,d,A\n", "x.csv")).toThrow(/line 1, field "B": option text is empty/);
  });
});

describe("importJsonLines", () => {
  it("accepts calibkit records, Hugging Face rows and MMLU rows as objects", () => {
    const text = [
      JSON.stringify({ id: "n1", context: "Lily had a ball.", question: "She played with her", options: { A: "ball", B: "cake" }, answer: "A" }),
      JSON.stringify({ question: "2+2?", choices: ["3", "4", "5", "6"], answer: 1, subject: "math" }),
      JSON.stringify({ question: "1+1?", A: "2", B: "3", C: "4", D: "5", answer: "a" }),
    ].join("\n");
    const ds = importJsonLines(text, "mix.jsonl");
    expect(ds.kind).toBe("multiple_choice");
    expect(ds.items.map((i) => (i as { answer: string }).answer)).toEqual(["A", "B", "A"]);
    expect(ds.items[1]).toMatchObject({ id: "mix:2", group: "math", options: { A: "3", B: "4", C: "5", D: "6" } });
  });
  it("reads ordinal, claims and pass/fail records", () => {
    expect(importJsonLines('{"context":"c","levels":["lo","hi"],"answer":"hi"}', "o.jsonl").kind).toBe("ordinal");
    expect(importJsonLines('{"context":"c","response":"r","claims":[{"text":"t","correct":true}]}', "c.jsonl").kind).toBe("claims");
    expect(importJsonLines('{"context":"c","question":"s","answer":"fail"}', "p.jsonl").kind).toBe("pass_fail");
  });
  it("names file, line and field of a bad record, and refuses mixed kinds and duplicate ids", () => {
    const good = JSON.stringify({ id: "a", question: "q", options: ["x", "y"], answer: 0 });
    expect(() => importJsonLines(`${good}\n{"question":"q","options":["x","y"],"answer":5}`, "d.jsonl"))
      .toThrow(/d\.jsonl, line 2, field "answer": index 5 is outside 0\.\.1/);
    expect(() => importJsonLines(`${good}\n{not json`, "d.jsonl")).toThrow(/d\.jsonl, line 2: not valid JSON/);
    expect(() => importJsonLines(`${good}\n${good}`, "d.jsonl")).toThrow(/line 2, field "id": duplicate id "a"/);
    expect(() => importJsonLines(`${good}\n{"context":"c","levels":["a","b"],"answer":"a"}`, "d.jsonl")).toThrow(/line 2: a ordinal record in a multiple_choice file/);
    expect(() => importJsonLines('{"context":"c","response":"r","claims":[{"text":"t","correct":"yes"}]}', "c.jsonl"))
      .toThrow(/field "claims\[0\]\.correct": must be true or false/);
  });
});

describe("loadDataset", () => {
  it("loads the bundled fixtures, every line an item", async () => {
    const cloze = await loadDataset("fixtures/story-cloze.jsonl");
    expect(cloze.kind).toBe("multiple_choice");
    expect(cloze.items.length).toBeGreaterThanOrEqual(2000);
    const csv = await loadDataset("fixtures/story-cloze-mmlu.csv");
    expect(csv.items).toHaveLength(300);
    expect((await loadDataset("fixtures/ordinal-sizes.jsonl")).kind).toBe("ordinal");
    expect((await loadDataset("fixtures/claims.jsonl")).kind).toBe("claims");
    expect((await loadDataset("fixtures/pass-fail.jsonl")).kind).toBe("pass_fail");
  });
  it("refuses an unknown extension and a missing file with the file named", async () => {
    const dir = await mkdtemp(join(tmpdir(), "calibkit-ds-"));
    await writeFile(join(dir, "d.txt"), "x");
    await expect(loadDataset(join(dir, "d.txt"))).rejects.toThrow(/unknown dataset format "\.txt"/);
    await expect(loadDataset(join(dir, "none.jsonl"))).rejects.toThrow(/none\.jsonl: cannot read the file \(ENOENT\)/);
  });
});
