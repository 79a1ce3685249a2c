import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dir = mkdtempSync(join(tmpdir(), "calibkit-conformal-"));
const file = (name: string, body: string) => {
  const p = join(dir, name);
  writeFileSync(p, body);
  return p;
};
// In-process runs (same code as the binary) keep the suite fast; two tests spawn the real binary.
import { run } from "../../src/cli/commands/conformal.js";
async function inproc(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const o = process.stdout.write.bind(process.stdout);
  const e = process.stderr.write.bind(process.stderr);
  process.stdout.write = ((c: string) => ((out += c), true)) as typeof process.stdout.write;
  process.stderr.write = ((c: string) => ((err += c), true)) as typeof process.stderr.write;
  try {
    return { code: await run(args), out, err };
  } finally {
    process.stdout.write = o;
    process.stderr.write = e;
  }
}
const spawnCli = (...args: string[]) => {
  const r = spawnSync(process.execPath, ["bin/calibkit.js", "conformal", ...args], { env: { ...process.env, CALIBKIT_FROM_SOURCE: "1" }, encoding: "utf8", timeout: 30_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

describe("calibkit conformal (JSON command)", () => {
  const cal = file("cal.jsonl", [
    { probabilities: { a: 0.7, b: 0.2, c: 0.1 }, label: "a" },
    { probabilities: { a: 0.5, b: 0.3, c: 0.2 }, label: "b" },
    { probabilities: { a: 0.1, b: 0.8, c: 0.1 }, label: "b" },
    { probabilities: { a: 0.3, b: 0.3, c: 0.4 }, label: "c" },
  ].map((r) => JSON.stringify(r)).join("\n"));
  const test = file("test.json", JSON.stringify([{ probabilities: { a: 0.6, b: 0.3, c: 0.1 } }, { probabilities: { a: 0.05, b: 0.05, c: 0.9 } }]));

  it("set: prints one JSON object with threshold and one prediction per test record; seeded runs repeat", async () => {
    const r = spawnCli("set", "--method", "LAC", "--alpha", "0.2", "--calibration", cal, "--test", test);
    expect(r.code, r.err).toBe(0);
    const o = JSON.parse(r.out);
    expect(o).toMatchObject({ type: "set", method: "LAC", alpha: 0.2, n: 4, threshold: 0.7 });
    expect(o.predictions.map((p: { set: string[] }) => p.set)).toEqual([["a", "b"], ["c"]]);
    const a = await inproc("set", "--method", "aps", "--alpha", "0.2", "--calibration", cal, "--test", test, "--seed", "profile@1/q");
    const b = await inproc("set", "--method", "aps", "--alpha", "0.2", "--calibration", cal, "--test", test, "--seed", "profile@1/q");
    expect(a.out).toBe(b.out);
  });
  it("says on stderr when a threshold is infinite (α = 0.01 with n = 50): full sets, and how many records would do", async () => {
    const many = file("cal50.jsonl", Array.from({ length: 50 }, (_, i) => JSON.stringify({ probabilities: { a: 0.6, b: 0.3, c: 0.1 }, label: "abc"[i % 3] })).join("\n"));
    const r = await inproc("set", "--method", "LAC", "--alpha", "0.01", "--calibration", many, "--test", test);
    expect(JSON.parse(r.out)).toMatchObject({ n: 50, threshold: "Infinity" });
    expect(JSON.parse(r.out).predictions.map((p: { set: string[] }) => p.set)).toEqual([["a", "b", "c"], ["a", "b", "c"]]);
    expect(r.err).toMatch(/warning: the threshold is infinite: 50 calibration records are too few at α = 0.01 \(a finite threshold needs at least 99\); every set is the full set/);
    const fine = await inproc("set", "--method", "LAC", "--alpha", "0.2", "--calibration", many, "--test", test);
    expect(fine.err).toBe("");
  });
  it("gate, belief, claim and interval records", async () => {
    const gcal = file("g.json", JSON.stringify(Array.from({ length: 40 }, (_, i) => ({ score: i / 40, label: i % 3 === 0 && i < 20 ? "fail" : "pass" }))));
    const g = JSON.parse((await inproc("gate", "--guarantee", "risk", "--target", "0.1", "--calibration", gcal, "--test", file("gt.json", '[{"score":0.99},{"score":0.01}]'))).out);
    expect(g.predictions).toEqual([{ decision: "auto_approve" }, { decision: "escalate" }]);
    const bcal = file("b.jsonl", '{"score":0.2,"label":0}\n{"score":0.8,"label":1}\n');
    const b = JSON.parse((await inproc("belief", "--calibration", bcal, "--test", file("bt.json", '[{"score":0.5}]'))).out);
    expect(b.predictions[0].venn_abers).toEqual([0, 1]);
    const ccal = file("c.json", JSON.stringify([{ claims: [{ text: "x", score: 0.4, correct: false }, { text: "y", score: 0.9, correct: true }] }]));
    const c = JSON.parse((await inproc("claim", "--alpha", "0.5", "--calibration", ccal, "--test", file("ct.json", '[{"claims":[{"text":"p","score":0.5},{"text":"q","score":0.3}]}]'))).out);
    expect(c.predictions[0].retained_claims.map((x: { text: string }) => x.text)).toEqual(["p"]);
    const ical = file("i.json", JSON.stringify([{ lower: 0, upper: 1, y: 1.5 }, { lower: 0, upper: 1, y: 0.5 }, { lower: 0, upper: 1, y: 0.9 }]));
    const iv = JSON.parse((await inproc("interval", "--method", "cqr", "--alpha", "0.5", "--calibration", ical, "--test", file("it.json", '[{"lower":2,"upper":3}]'))).out);
    expect(iv.predictions[0].interval).toEqual([2.1, 2.9].map((x) => expect.closeTo(x, 12)));
  });
  it("bad input names file, line and field; bad options name the option", async () => {
    const bad = file("bad.jsonl", '{"probabilities":{"a":0.5,"b":0.5},"label":"a"}\n{"probabilities":{"a":"x","b":0.5},"label":"a"}\n');
    const r = spawnCli("set", "--calibration", bad, "--test", test);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${bad}: line 2: field "probabilities.a"`);
    const u = await inproc("set", "--alpah", "0.1");
    expect(u.code).toBe(2);
    expect(u.err).toContain("--alpah");
    expect((await inproc("gate", "--calibration", cal, "--test", test)).err).toContain("--guarantee");
    expect((await inproc("set", "--calibration", join(dir, "missing.json"), "--test", test)).err).toContain("missing.json: cannot read (ENOENT)");
  });
});
