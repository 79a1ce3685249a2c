import { resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_DATASET, parseRunOptions, RunOptionError } from "../../src/cli/run/options.js";

describe("calibkit run options", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it("defaults to the bundled dataset, stories260K in the models folder, α = 0.1 and ./calibkit-out", () => {
    delete process.env.CALIBKIT_MODEL;
    process.env.CALIBKIT_MODELS_DIR = "/models";
    const o = parseRunOptions([]);
    expect(o.dataset).toBe(DEFAULT_DATASET);
    expect(o.model).toBe("/models/stories260K.gguf");
    expect(o.method).toBeUndefined(); // LAC for multiple choice, ordinal-aps for ordinal data
    expect(o).toMatchObject({ alpha: 0.1, out: resolve("calibkit-out"), calibration: 1000, test: 500, audit: 200, monitor: 200, service: undefined });
  });

  it("takes the model from $CALIBKIT_MODEL, and options over defaults", () => {
    process.env.CALIBKIT_MODEL = "/somewhere/m.gguf";
    expect(parseRunOptions([]).model).toBe("/somewhere/m.gguf");
    const o = parseRunOptions(["--model", "x.gguf", "--alpha", "0.2", "--method", "aps", "--limit", "50", "--service", "http://h/api/v1"]);
    expect(o).toMatchObject({ model: "x.gguf", alpha: 0.2, method: "aps", limit: 50, service: "http://h/api/v1" });
  });

  it.each([
    [["--alpha", "1.5"], /--alpha: must be a number strictly between 0 and 1, got "1.5"/],
    [["--method", "XYZ"], /--method: must be LAC, APS, RAPS, ordinal-aps or CQR/],
    [["--test", "0"], /--test: must be an integer ≥ 1/],
    [["--service", "ftp://x"], /--service: must be an http\(s\) URL/],
    [["--dataset", "/no/such.jsonl"], /--dataset: no file at \/no\/such\.jsonl/],
    [["--bogus"], /--bogus: .*Unknown option '--bogus'/],
    [["--profile", "bad name"], /--profile: must start with a letter or digit/],
  ])("refuses %j naming the option", (argv, message) => {
    expect(() => parseRunOptions(argv)).toThrow(RunOptionError);
    expect(() => parseRunOptions(argv)).toThrow(message);
  });
});
