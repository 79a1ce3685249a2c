// Issue #14, point 4: the `conformal` command's gaps, each checked through the command itself.
import { describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { run } from "../../src/cli/commands/conformal.js";

const dir = mkdtempSync(join(tmpdir(), "calibkit-conformal-gaps-"));
const file = (name: string, records: unknown[], sep = "\n") => {
  const p = join(dir, name);
  writeFileSync(p, records.map((r) => (r && typeof r === "object" && "text" in r ? (r as { text: string }).text : JSON.stringify(r))).join(sep) + sep);
  return p;
};
async function cli(...args: string[]): Promise<{ code: number; out: string; err: string; json: () => any }> {
  let out = "";
  let err = "";
  const o = process.stdout.write.bind(process.stdout);
  const e = process.stderr.write.bind(process.stderr);
  process.stdout.write = ((c: string) => ((out += c), true)) as typeof process.stdout.write;
  process.stderr.write = ((c: string) => ((err += c), true)) as typeof process.stderr.write;
  try {
    const code = await run(args);
    return { code, out, err, json: () => JSON.parse(out) };
  } finally {
    process.stdout.write = o;
    process.stderr.write = e;
  }
}

// Level probabilities peaked at the label: a sharp model whose intervals are one level wide. Written as
// text: a JavaScript object (so JSON.stringify) would itself put "0" and "1" before "-1".
const peaked = (levels: string[], at: number, extra: Record<string, unknown> = {}) => ({
  text: `{"probabilities":{${levels.map((l, j) => `${JSON.stringify(l)}:${j === at ? 0.96 : 0.02}`).join(",")}}${Object.entries(extra).map(([k, v]) => `,${JSON.stringify(k)}:${JSON.stringify(v)}`).join("")}}`,
});
const LV = ["-1", "0", "1"];

describe("conformal interval: levels", () => {
  const cal = file("lv-cal.jsonl", Array.from({ length: 60 }, (_, i) => peaked(LV, i % 3, { label: LV[i % 3] })));
  const test = file("lv-test.jsonl", [peaked(LV, 0)]);
  it("keeps the file's order of integer-like level names (JSON.parse would read 0, 1, -1)", async () => {
    const r = await cli("interval", "--method", "cqr", "--alpha", "0.2", "--deterministic", "--calibration", cal, "--test", test);
    expect(r.code, r.err).toBe(0);
    const p = r.json().predictions[0];
    expect(p.legend).toEqual(["-1", "0", "1"]);
    expect(p.interval).toEqual(["-1", "-1"]);
    expect(p.point_estimate).toBe("-1");
  });
  it("takes the scale from --levels, and labels given as numbers", async () => {
    const numeric = file("lv-cal-num.jsonl", Array.from({ length: 60 }, (_, i) => peaked(LV, i % 3, { label: Number(LV[i % 3]) })));
    const r = await cli("interval", "--method", "cqr", "--alpha", "0.2", "--deterministic", "--levels=-1,0,1", "--calibration", numeric, "--test", test);
    expect(r.code, r.err).toBe(0);
    expect(r.json().predictions[0]).toEqual({ point_estimate: "-1", interval: ["-1", "-1"], legend: LV });
    const bad = await cli("interval", "--levels=-1,0", "--calibration", cal, "--test", test);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('line 1: field "probabilities": levels must be ["-1","0"]');
  });
});

describe("conformal interval: groups (Mondrian), all or none", () => {
  // Group "big" has 60 examples, group "small" 3: at α 0.2 its quantile is infinite (full scale).
  const records = [
    ...Array.from({ length: 60 }, (_, i) => peaked(LV, i % 3, { label: LV[i % 3], group: "big" })),
    ...Array.from({ length: 3 }, (_, i) => peaked(LV, i, { label: LV[i], group: "small" })),
  ];
  it("calibrates each group on its own examples", async () => {
    const cal = file("g-cal.jsonl", records);
    const test = file("g-test.jsonl", [peaked(LV, 1, { group: "big" }), peaked(LV, 1, { group: "small" })]);
    const r = await cli("interval", "--method", "cqr", "--alpha", "0.2", "--deterministic", "--calibration", cal, "--test", test);
    expect(r.code, r.err).toBe(0);
    const o = r.json();
    expect(o.groups.small).toEqual({ n: 3, k: 4, threshold: "Infinity" });
    expect(o.groups.big.n).toBe(60);
    expect(o.predictions.map((p: { interval: string[] }) => p.interval)).toEqual([["0", "0"], ["-1", "1"]]);
  });
  it("refuses a record without a group when the others have one (and numeric CQR honours groups too)", async () => {
    const cal = file("g-missing.jsonl", [...records.slice(0, 5), peaked(LV, 0, { label: "-1" })]);
    const r = await cli("interval", "--calibration", cal, "--test", file("g-t.jsonl", [peaked(LV, 0, { group: "big" })]));
    expect(r.code).toBe(1);
    expect(r.err).toContain('line 6: field "group": missing');
    const num = file("n-cal.jsonl", [
      ...Array.from({ length: 20 }, (_, i) => ({ lower: 0, upper: 1, y: 0.5 + (i % 4) * 0.01, group: "a" })),
      { lower: 0, upper: 1, y: 9, group: "b" },
    ]);
    const n = await cli("interval", "--alpha", "0.2", "--calibration", num, "--test", file("n-t.jsonl", [{ lower: 2, upper: 3, group: "a" }, { lower: 2, upper: 3, group: "b" }]));
    expect(n.code, n.err).toBe(0);
    expect(n.json().predictions[1].interval).toEqual(["-Infinity", "Infinity"]);
    expect(n.json().predictions[0].interval[0]).toBeGreaterThan(2);
  });
});

describe("conformal set: the library's options on the command line", () => {
  const names = ["a", "b", "c"];
  const cal = file("s-cal.jsonl", Array.from({ length: 90 }, (_, i) => ({
    probabilities: Object.fromEntries(names.map((k, j) => [k, j === i % 3 ? 0.5 + (i % 7) / 20 : 0.1])),
    label: names[(i + (i % 5 === 0 ? 1 : 0)) % 3],
  })));
  const test = file("s-test.jsonl", [{ probabilities: { a: 0.6, b: 0.3, c: 0.1 } }]);
  it("--class-conditional prints a threshold per class", async () => {
    const r = await cli("set", "--class-conditional", "--calibration", cal, "--test", test);
    expect(r.code, r.err).toBe(0);
    expect(Object.keys(r.json().thresholds)).toEqual(names);
    expect(r.json().thresholds.a.n).toBe(r.json().n / 3);
  });
  it("--lambda and --k-reg fix RAPS (no tuning: every record calibrates); --tuning-fraction sets the held-out share", async () => {
    const fixed = (await cli("set", "--method", "raps", "--lambda", "0.3", "--k-reg", "1", "--calibration", cal, "--test", test)).json();
    expect([fixed.lambda, fixed.k_reg, fixed.n]).toEqual([0.3, 1, 90]);
    const tuned = (await cli("set", "--method", "raps", "--tuning-fraction", "0.5", "--calibration", cal, "--test", test)).json();
    expect(tuned.n).toBe(45);
  });
  it("--randomized off equals --deterministic; on (the default) differs", async () => {
    const off = await cli("set", "--method", "aps", "--randomized", "off", "--calibration", cal, "--test", test);
    const det = await cli("set", "--method", "aps", "--deterministic", "--calibration", cal, "--test", test);
    const on = await cli("set", "--method", "aps", "--randomized", "on", "--calibration", cal, "--test", test);
    expect(off.out).toBe(det.out);
    expect(on.out).not.toBe(off.out);
    expect((await cli("set", "--randomized", "maybe", "--calibration", cal, "--test", test)).code).toBe(2);
  });
  it("per-option Venn–Abers only with --beliefs", async () => {
    expect((await cli("set", "--calibration", cal, "--test", test)).json().predictions[0].venn_abers).toBeUndefined();
    const va = (await cli("set", "--beliefs", "--calibration", cal, "--test", test)).json().predictions[0].venn_abers;
    expect(Object.keys(va)).toEqual(names);
    expect(va.a[0]).toBeLessThanOrEqual(va.a[1]);
  });
  it("--alpha 0 (and other bad values) exit 2 like every bad option; the seed prints as a number", async () => {
    for (const bad of [["--alpha", "0"], ["--alpha", "1"], ["--lambda", "-1", "--method", "raps"], ["--k-reg", "1.5", "--method", "raps"], ["--lambda", "0.1"]]) {
      const r = await cli("set", ...bad, "--calibration", cal, "--test", test);
      expect(r.code, bad.join(" ")).toBe(2);
      expect(r.err).toContain(`--${bad[0]!.slice(2)}`);
    }
    expect((await cli("set", "--seed", "7", "--calibration", cal, "--test", test)).json().seed).toBe(7);
    expect((await cli("set", "--seed", "profile@1/q", "--calibration", cal, "--test", test)).json().seed).toBe("profile@1/q");
  });
});

describe("conformal: JSON Lines read in chunks", () => {
  it("reads records across chunk boundaries and CRLF line ends, and names the right line of a bad one", async () => {
    const pad = "x".repeat(90);
    const recs = Array.from({ length: 12_000 }, (_, i) => ({ score: (i % 100) / 100, label: i % 2, pad }));
    const cal = file("big.jsonl", recs, "\r\n");
    const r = await cli("belief", "--calibration", cal, "--test", file("bt.jsonl", recs.slice(0, 5)));
    expect(r.code, r.err).toBe(0);
    expect(r.json().n).toBe(12_000);
    recs[11_000] = { score: "oops", label: 1, pad } as never;
    const bad = await cli("belief", "--calibration", file("bad.jsonl", recs), "--test", file("bt2.jsonl", recs.slice(0, 1)));
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('line 11001: field "score"');
  });
});
