// `calibkit run --layout / --fields`: parsed strictly, and a malformed file in any layout is reported
// with its line (or Parquet row) and field before any model is loaded.
import { spawn } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parquetWriteBuffer } from "hyparquet-writer";
import { describe, expect, it } from "vitest";
import { parseRunOptions, RunOptionError } from "../../src/cli/run/options.js";

const FIX = join(import.meta.dirname, "..", "datasets", "fixtures");

function calibkit(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ["bin/calibkit.js", ...args], { env: { ...process.env, CALIBKIT_FROM_SOURCE: "1" } });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += String(d)));
    child.on("exit", (code) => done({ code, stderr }));
  });
}

describe("calibkit run dataset flags", () => {
  it("parses --layout and --fields", () => {
    expect(parseRunOptions(["--layout", "hellaswag"]).datasetOptions).toEqual({ layout: "hellaswag" });
    expect(parseRunOptions(["--fields", "question=prompt,choices=opts,answer=gold,group=meta.topic"]).datasetOptions)
      .toEqual({ fields: { question: "prompt", choices: "opts", answer: "gold", group: "meta.topic" } });
    expect(parseRunOptions([]).datasetOptions).toEqual({});
  });

  it.each([
    [["--layout", "squad"], /--layout: must be one of auto, calibkit, mmlu, truthfulqa_mc1, hellaswag, commonsense_qa, arc, truthfulqa_gen, triviaqa, gsm8k, nq_open, got "squad"/],
    [["--fields", "question=q,choices=c"], /--fields: must name at least choices=FIELD and answer=FIELD/],
    [["--fields", "question=q,choices=c,answer=a,colour=x"], /--fields: unknown key "colour"/],
    [["--fields", "question,choices=c,answer=a"], /--fields: "question" is not KEY=FIELD/],
    [["--layout", "arc", "--fields", "question=q,choices=c,answer=a"], /--fields: give --layout or --fields, not both/],
  ])("refuses %j naming the option", (argv, message) => {
    expect(() => parseRunOptions(argv)).toThrow(RunOptionError);
    expect(() => parseRunOptions(argv)).toThrow(message);
  });

  it("names the Parquet row and field of a malformed file before loading the model", async () => {
    const dir = await mkdtemp(join(tmpdir(), "calibkit-badpq-"));
    const file = join(dir, "arc.parquet");
    const buffer = parquetWriteBuffer({ columnData: [
      { name: "question", data: ["q1?", "q2?"], type: "STRING" },
      { name: "choices", data: [{ text: ["a", "b"], label: ["A", "B"] }, { text: ["a", "b"], label: ["A", "B"] }], type: "JSON" },
      { name: "answerKey", data: ["A", "C"], type: "STRING" },
    ] });
    await writeFile(file, new Uint8Array(buffer));
    const r = await calibkit(["run", "--dataset", file, "--model", "/nonexistent.gguf", "--quiet"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file}, row 2, field "answerKey": "C" is not one of the options A, B`);
    expect(r.stderr).not.toMatch(/nonexistent/);
  }, 60_000);

  it("reads a file through --fields and names the mapped field of a bad line", async () => {
    const r = await calibkit(["run", "--dataset", join(FIX, "custom.jsonl"), "--fields", "question=prompt,choices=opts,answer=uid", "--model", "/nonexistent.gguf", "--quiet"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('custom.jsonl, line 1, field "uid": index 101 is outside 0..2');
  }, 60_000);
});
