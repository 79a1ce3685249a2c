// `calibkit run --from-lm-eval` on a generate_until samples file with `--query-type belief` (issue 28, point 2):
// a calibrated probability that each answer is right, from the agreement of its repeats, cross-checked, the
// source file and the model named as for the gate; types that do not fit refused by name.
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { QueryRunSummary } from "../../src/report/index.js";
import { runCalibkit } from "../cliProcess.js";

const E2E_TIMEOUT_MS = 120_000;
const GEN = "fixtures/lm-eval/samples_gsm8k_mini_2026-11-27T09-30-00.000000.jsonl";

describe("calibkit run --from-lm-eval --query-type belief (no model loaded)", () => {
  it("gives Venn–Abers beliefs that the answer is right: in band, 0 disagreements, the file and model named, items.jsonl", async () => {
    const out = await mkdtemp(join(tmpdir(), "calibkit-lmeval-belief-"));
    const r = await runCalibkit(["run", "--from-lm-eval", GEN, "--query-type", "belief", "--out", out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/belief: answers graded by the file's exact_match \(yes when ≥ 0\.5\); confidence = share of the 5 response\(s\)/);
    const s = JSON.parse(await readFile(join(out, "summary.json"), "utf8")) as QueryRunSummary;
    expect(s.queryType).toBe("belief");
    expect(s.model).toMatchObject({ path: "EleutherAI/pythia-160m", backend: "lm-eval:hf", accessLevel: "L0" });
    expect(s.source).toMatchObject({ lmEvalSamples: resolve(GEN), task: "gsm8k_mini", model: "EleutherAI/pythia-160m" });
    expect(s.crossCheck.disagreements).toEqual([]);
    expect(s.crossCheck.unchecked).toEqual({});
    expect(s.crossCheck.answers).toBe(s.split.test);
    expect(s.section.inBand).toBe(true);
    // At L0 the service estimates p(yes) from the samples, and says so in the guarantee.
    const html = await readFile(join(out, "report.html"), "utf8");
    expect(html).toContain("samples_gsm8k_mini_2026-11-27T09-30-00.000000.jsonl");
    expect(html).toContain("EleutherAI/pythia-160m");

    const lines = (await readFile(GEN, "utf8")).trim().split("\n").map((l) => JSON.parse(l) as { doc_id: number; resps: string[][]; filtered_resps: string[]; exact_match: number });
    const byId = new Map(lines.map((l) => [String(l.doc_id), l]));
    const items = (await readFile(join(out, "items.jsonl"), "utf8")).trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(items).toHaveLength(lines.length);
    let tested = 0;
    for (const item of items) {
      const line = byId.get(item.id as string)!;
      const answer = line.filtered_resps[0]!.trim();
      const agree = line.resps[0]!.filter((x) => answer !== "" && x.includes(answer)).length / line.resps[0]!.length;
      expect(item.label).toBe(line.exact_match >= 0.5 ? "yes" : "no");
      expect(item.option_probabilities).toEqual({ yes: agree, no: 1 - agree });
      if (item.split === "test") {
        tested++;
        const a = item.answer as { type: string; probability: number; venn_abers: [number, number]; guarantee: { method?: string } };
        expect(a.type).toBe("belief");
        expect(a.venn_abers[0]).toBeLessThanOrEqual(a.venn_abers[1]);
        expect(a.probability).toBeGreaterThanOrEqual(0);
        expect(a.probability).toBeLessThanOrEqual(1);
      } else expect(item.answer).toBeNull();
    }
    expect(tested).toBe(s.split.test);
    // The same confidence ranks items: answers their repeats agree on are right more often than the others.
    const right = (pred: (p: number) => boolean) => {
      const chosen = items.filter((i) => pred((i.option_probabilities as { yes: number }).yes));
      return chosen.filter((i) => i.label === "yes").length / chosen.length;
    };
    expect(right((p) => p >= 0.8)).toBeGreaterThan(right((p) => p < 0.8));
  }, E2E_TIMEOUT_MS);

  it("refuses the query types a file of graded answers cannot fit, naming the type, and a gate's guarantee on a belief", async () => {
    for (const [type, why] of [["set", /no options/], ["interval", /no ordered levels/], ["route", /no cascade stages/], ["judge", /not candidates/], ["claim", /not each claim/]] as const) {
      const r = await runCalibkit(["run", "--from-lm-eval", GEN, "--query-type", type]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(new RegExp(`--query-type ${type} does not fit it`));
      expect(r.stderr).toMatch(why);
      expect(r.stderr).toMatch(/runs as gate \(the default\) or belief/);
    }
    const r = await runCalibkit(["run", "--from-lm-eval", GEN, "--query-type", "belief", "--guarantee", "risk"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/--guarantee: belief queries take no --guarantee/);
  }, E2E_TIMEOUT_MS);
});
