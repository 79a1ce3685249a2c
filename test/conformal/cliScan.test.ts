// The `conformal` command's fast JSON Lines path (src/cli/conformal/scan.ts, numbers.ts) against JSON.parse:
// every number it reads is JSON.parse's double, and a file read with it fills the same columns, and fails with
// the same message, as the same file read by JSON.parse alone. And the command prints scores only when asked.
import { describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mulberry32 } from "../../src/conformal/index.js";
import { readNumber } from "../../src/cli/conformal/numbers.js";
import { readRecords, type FastRecord } from "../../src/cli/conformal/records.js";
import { Groups, ProbabilityColumns, scannedInto } from "../../src/cli/conformal/columns.js";
import { run } from "../../src/cli/commands/conformal.js";

const rng = mulberry32(14);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
const dir = mkdtempSync(join(tmpdir(), "calibkit-scan-"));

/** A JSON number text for a random value, in one of the ways JSON allows writing it. */
function numberText(positive = false): string {
  const v = pick([
    () => rng(), () => rng() * 1e-7, () => Math.round(rng() * 1000), () => rng() * 10 ** Math.floor(rng() * 60 - 40),
    () => 0, () => 1, () => 2 ** 53 + 1, () => 5e-324, () => 1.7976931348623157e308, () => Math.fround(rng()),
  ])();
  const signed = positive || rng() < 0.7 ? v : -v;
  const text = pick([
    () => String(signed), () => signed.toExponential(Math.floor(rng() * 20)), () => signed.toPrecision(1 + Math.floor(rng() * 21)),
    () => String(signed).replace("e", "E"), () => signed.toExponential().replace(/e([+-])/, "e$10"), () => signed.toFixed(Math.floor(rng() * 25)),
  ])();
  return text.includes("Infinity") || text.includes("NaN") || (positive && !Number.isFinite(JSON.parse(text))) ? "0" : text;
}

describe("readNumber: JSON.parse's double from the bytes", () => {
  it("equals JSON.parse on 200,000 random number texts, and on the hard cases", () => {
    const texts = Array.from({ length: 200_000 }, () => numberText());
    texts.push("-0", "0", "0.0", "-0.0e-5", "1e-7", "5E+2", "1E400", "-1e400", "1e-400", "9007199254740993", "9007199254740992.5",
      "0.1000000000000000055511151231257827", "123456789012345678901234567890", "0.00000000000000000000000000000000000000000000001",
      "2.2250738585072011e-308", "4.9406564584124654e-324", "1.00000000000000011102230246251565404236316680908203125",
      "0.30000000000000004", "1e000000000000000000000005", "7.0e-10", "1.5e22", "1.5e23", "0." + "0".repeat(30) + "1");
    const out = new Float64Array(1);
    for (const t of texts) {
      const b = Buffer.from(` ${t},`);
      const end = readNumber(b, 1, b.length, out, 0);
      if (end !== b.length - 1 || !Object.is(out[0], JSON.parse(t))) expect({ t, end, got: out[0] }).toEqual({ t, end: b.length - 1, got: JSON.parse(t) });
    }
  });
  it("refuses what is not a JSON number, or stops where the number ends", () => {
    const out = new Float64Array(1);
    for (const t of ["-", "+1", ".5", "1.", "1e", "1e+", "--1", "-.5", "x", ""]) expect(readNumber(Buffer.from(t), 0, t.length, out, 0), t).toBe(-1);
    expect(readNumber(Buffer.from("01"), 0, 2, out, 0)).toBe(1); // "0", then a byte the caller refuses
    expect(readNumber(Buffer.from("1.5x"), 0, 4, out, 0)).toBe(3);
    // Digits stop at any byte that is not one, next to "0" and "9" too, and at `end`.
    for (const stop of [0x2f, 0x3a, 0xfa, 0xff, 0x00, 0x45]) {
      const b = Buffer.from([...Buffer.from("0.1234567"), stop, ...Buffer.from("1234")]);
      const end = readNumber(b, 0, b.length, out, 0);
      expect(end === 9 || (stop === 0x45 && end === 14), String(stop)).toBe(true);
      if (end === 9) expect(out[0]).toBe(0.1234567);
    }
    expect(readNumber(Buffer.from("0.12345678"), 0, 6, out, 0)).toBe(6);
    expect(out[0]).toBe(0.1234);
  });
});

const ws = () => pick(["", "", "", " ", "\t", "  ", " \r"]);
const str = (s: string) => (rng() < 0.1 ? `"${[...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("")}"` : JSON.stringify(s));

/** One record's text: the given names in order (or shuffled), key order, spacing and extra keys varied. */
function recordText(names: string[], label: string | undefined, group: string | undefined, shuffled = rng() < 0.1): string {
  const ordered = shuffled ? [...names].sort(() => rng() - 0.5) : names;
  const probabilities = `{${ordered.map((n) => `${ws()}${str(n)}${ws()}:${ws()}${numberText(true)}${ws()}`).join(",")}}`;
  const members: string[] = [`${ws()}"probabilities"${ws()}:${ws()}${probabilities}`];
  if (label !== undefined) members.push(`${ws()}"label":${ws()}${rng() < 0.05 && /^-?\d+$/.test(label) ? label : str(label)}`);
  if (group !== undefined) members.push(`"group"${ws()}:${str(group)}`);
  if (rng() < 0.2) members.push(`${str(pick(["id", "note", "é", "__proto__"]))}:${pick(["7", "-1.5e3", '"x"', '"a\\"b"', "true", "false", "null", '{"k":[1,2]}', "[]"])}`);
  return `${ws()}{${members.sort(() => rng() - 0.5).join(",")}${ws()}}${ws()}`;
}

function read(file: string, fast: boolean, labelled = true, fixed?: string[]) {
  const cols = new ProbabilityColumns(fixed);
  const groups = new Groups();
  let taken = 0;
  const scanned = scannedInto(cols, groups, labelled, true);
  const counted: FastRecord = (...a) => (scanned(...a) ? (taken++, true) : false);
  try {
    readRecords(file, (r, i, src) => {
      cols.add(src, i, r, labelled, fixed !== undefined);
      groups.add(src, i, r, true);
    }, fast ? counted : undefined);
  } catch (e) {
    return { error: (e as Error).message, taken };
  }
  const { data, size, starts, count, labels, names, ragged } = cols;
  return { data: data.slice(0, size), starts: starts.slice(0, count + 1), labels: labels.slice(0, count), names, ragged, codes: groups.codes.slice(0, groups.count), groups: groups.names, taken };
}

describe("the fast record reader ≡ JSON.parse", () => {
  it("fills the same columns from random valid files (spacing, escapes, key orders, extra keys, -0, 1e-7, 5E+2)", () => {
    for (let f = 0; f < 40; f++) {
      const names = pick([["a", "b", "c"], ["option_0", "option_1", "option_2", "option_3"], ["-1", "0", "1"], ["é", "ü", "x y"], ["1", "0"]]);
      const grouped = rng() < 0.5;
      const lines = Array.from({ length: 300 }, (_, i) => recordText(names, pick(names), grouped ? pick(["g1", "g2", "ä"]) : undefined, i === 0 ? false : undefined));
      if (rng() < 0.3) lines.splice(5, 0, "", "   ");
      const file = join(dir, `valid-${f}.jsonl`);
      writeFileSync(file, lines.join(rng() < 0.5 ? "\n" : "\r\n") + (rng() < 0.5 ? "\n" : ""));
      const { taken, ...slow } = read(file, false);
      const { taken: fastTaken, ...fast } = read(file, true);
      expect(fast).toEqual(slow);
      expect(slow).not.toHaveProperty("error");
      // Many lines took the fast path (those without escapes, reordered names or nested extra values), except
      // where JSON.parse reorders integer-like names (then none can).
      if (!names.includes("0")) expect(fastTaken).toBeGreaterThan(100);
      // Interval levels are the text's order (or --levels): there integer-like names take the fast path too.
      const { taken: t1, ...slowLevels } = read(file, false, true, names);
      const { taken: t2, ...fastLevels } = read(file, true, true, names);
      expect(fastLevels).toEqual(slowLevels);
      expect(t2).toBeGreaterThan(100);
    }
  });
  it("fails with the same message, naming line and field, on bad lines", () => {
    const good = '{"probabilities":{"a":0.5,"b":0.5},"label":"a"}';
    const bad = [
      '{"probabilities":{"a":0.5,"b":},"label":"a"}', '{"probabilities":{"a":-0.5,"b":0.5},"label":"a"}', '{"probabilities":{"a":1e400,"b":0.5},"label":"a"}',
      '{"probabilities":{"a":"0.5","b":0.5},"label":"a"}', '{"probabilities":{"a":0.5,"b":0.5}}', '{"probabilities":{"a":0.5,"b":0.5},"label":"c"}',
      '{"probabilities":{"a":0.5,"b":0.5},"label":"a","group":"g"}', '{"probabilities":{"a":0.5,"b":0.5,},"label":"a"}', '{"probabilities":{"a":0.5,"b":0.5},"label":"a"',
      '{"probabilities":{"a":0.5,"b":0.5},"label":"a"} x', '{"probabilities":{"a":01,"b":0.5},"label":"a"}', '{"probabilities":{"a":0.5,"b":0.5},"label":1}',
      '{"probabilities":{"a":0.5,"b":0.5},"label":"a","label":"z"}', '{"probabilities":{"a":0.5,"b":0.5},"label":"a\u0001"}', '[1]', '{"probabilities":{"a":0.5,"b":.5},"label":"a"}',
      '{"probabilities":{"a":0.5,"b":0.5},"label":"a","x":tru}', '{"probabilities":{"a":0.5,"b":0.5},"label":"a","x":"\\q"}', '{"probabilities":{"a":0.5},"label":"a"}',
    ];
    for (const [k, line] of bad.entries()) {
      const file = join(dir, `bad-${k}.jsonl`);
      writeFileSync(file, `${good}\n${good}\n${line}\n${good}\n`);
      const { taken, ...slow } = read(file, false);
      const { taken: fastTaken, ...fast } = read(file, true);
      expect(fast, line).toEqual(slow);
      expect(fastTaken + taken, line).toBeGreaterThan(0); // the good line before it was read fast
      if (line !== '{"probabilities":{"a":0.5},"label":"a"}') expect(slow.error, line).toMatch(/bad-\d+\.jsonl: line 3: /);
    }
  });
});

describe("calibkit conformal set: what it prints", () => {
  async function cli(...args: string[]): Promise<any> {
    let out = "";
    const o = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((c: string) => ((out += c), true)) as typeof process.stdout.write;
    try {
      expect(await run(args)).toBe(0);
    } finally {
      process.stdout.write = o;
    }
    return JSON.parse(out);
  }
  it("scores only with --scores; the sets and p-values are the same either way; a line longer than the read buffer is read", async () => {
    const names = ["a", "b", "c"];
    const lines = Array.from({ length: 200 }, (_, i) => recordText(names, names[i % 3], undefined, false));
    lines[100] = `{"note":"${"x".repeat(3 << 20)}","probabilities":{"a":0.2,"b":0.3,"c":0.5},"label":"c"}`;
    const cal = join(dir, "cmd-cal.jsonl");
    writeFileSync(cal, lines.join("\n"));
    const test = join(dir, "cmd-test.jsonl");
    writeFileSync(test, Array.from({ length: 50 }, () => recordText(names, undefined, undefined, false)).join("\n"));
    for (const method of ["LAC", "APS"]) {
      const plain = await cli("set", "--method", method, "--calibration", cal, "--test", test);
      const scored = await cli("set", "--method", method, "--scores", "--calibration", cal, "--test", test);
      expect(plain.n).toBe(200);
      expect(plain.predictions[0]).not.toHaveProperty("scores");
      expect(Object.keys(scored.predictions[0].scores)).toEqual(names);
      expect(scored.predictions.map(({ scores: _, ...p }: any) => p)).toEqual(plain.predictions);
    }
  });
});
