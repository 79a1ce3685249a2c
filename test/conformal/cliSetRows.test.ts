// The `conformal set` predictions are written as bytes (setRows.ts: names, keys and p-value texts copied from
// one pool, four bytes at a time). Names longer than a pool piece, names that JSON escapes, non-ASCII names and
// p-values not of the form c/(n + 1) must come out as JSON.stringify would write them.
import { describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { run } from "../../src/cli/commands/conformal.js";
import * as C from "../../src/conformal/index.js";

const dir = mkdtempSync(join(tmpdir(), "calibkit-conformal-rows-"));
const NAMES = ["a", "option with a name much longer than thirty-one bytes, to be written from its own bytes", "quote \" and backslash \\", "é – 漢字 🙂", "b"];

async function cli(...args: string[]): Promise<string> {
  let out = "";
  const o = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((c: string | Buffer) => ((out += c.toString()), true)) as typeof process.stdout.write;
  try {
    expect(await run(args)).toBe(0);
    return out;
  } finally {
    process.stdout.write = o;
  }
}

describe("conformal set output written as bytes", () => {
  const rng = C.mulberry32(5);
  const K = NAMES.length;
  const rows = (n: number) => Float64Array.from({ length: n * K }, () => Math.round(rng() * 1000) / 1000);
  const cal = rows(400);
  const labels = Int32Array.from({ length: 400 }, () => Math.floor(rng() * K));
  const test = rows(60);
  const line = (d: Float64Array, i: number, extra: Record<string, unknown>) => JSON.stringify({ probabilities: Object.fromEntries(NAMES.map((x, j) => [x, d[i * K + j]])), ...extra });
  const calFile = join(dir, "cal.jsonl");
  const testFile = join(dir, "test.jsonl");
  writeFileSync(calFile, Array.from({ length: 400 }, (_, i) => line(cal, i, { label: NAMES[labels[i]!] })).join("\n") + "\n");
  writeFileSync(testFile, Array.from({ length: 60 }, (_, i) => line(test, i, {})).join("\n") + "\n");

  for (const classConditional of [false, true]) {
    it(`gives the library's sets, p-values and scores, in JSON.stringify's text${classConditional ? " (class-conditional: p-values of other n)" : ""}`, async () => {
      const text = await cli("set", "--method", "LAC", "--scores", "--beliefs", ...(classConditional ? ["--class-conditional"] : []), "--calibration", calFile, "--test", testFile);
      const got = JSON.parse(text);
      const c = C.calibrateSetBatch({ probabilities: cal, width: K, labels }, { method: "LAC", alpha: 0.1, classConditional });
      const want = C.predictSetBatch(c, { probabilities: test, width: K }, { scores: true, pValues: true });
      expect(got.predictions).toHaveLength(60);
      got.predictions.forEach((p: { set: string[]; p_values: Record<string, number>; scores: Record<string, number>; venn_abers: Record<string, number[]> }, i: number) => {
        expect(p.set).toEqual(NAMES.filter((_, j) => want.membership[i * K + j]));
        expect(Object.keys(p.p_values)).toEqual(NAMES);
        expect(Object.values(p.p_values)).toEqual(NAMES.map((_, j) => want.pValues![i * K + j]));
        expect(Object.values(p.scores)).toEqual(NAMES.map((_, j) => want.scores![i * K + j]));
        expect(Object.keys(p.venn_abers)).toEqual(NAMES);
      });
      expect(text).toBe(JSON.stringify(got) + "\n");
    });
  }
});
