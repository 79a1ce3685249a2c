// `calibkit bench` on free-form tasks, end to end on the documented example suite: stories260K and tiny-gpt2 answer
// the bundled story fixture once each; every listed scorer × α is a row of generation.csv, summary.json and the
// report (each scorer's gate over the repeats inside its band); a second run reads every answer from the cache with
// no model call; an unknown scorer is refused before any model loads, naming the field.
import { existsSync, writeFileSync } from "node:fs";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GENERATION_FIGURE_IDS } from "../../src/report/benchGenerationHtml.js";
import type { BenchSummary } from "../../src/report/index.js";
import { MODELS, runCalibkit } from "../cliProcess.js";
import { CHROMIUM, expectBenchFiguresDrawn, openReport } from "../report/browser.js";

const HAVE_MODELS = existsSync(join(MODELS, "stories260K.gguf")) && existsSync(join(MODELS, "tiny-gpt2"));
const calibkit = (args: string[]) => runCalibkit(args, { CALIBKIT_MODELS_DIR: MODELS });
const SCORERS = ["MaximumSequenceProbability", "MeanTokenEntropy", "NumSemSets", "LexicalSimilarity_rougeL"];
const MODEL_FILES = ["stories260K.gguf", "tiny-gpt2"];
const ALPHAS = [0.2, 0.3];

describe.skipIf(!HAVE_MODELS)("calibkit bench on free-form tasks", () => {
  it("compares every scorer × model × α from one generation per model, and reruns from the cache with 0 model calls", async () => {
    const dir = await mkdtemp(join(tmpdir(), "calibkit-bench-generation-"));
    const args = ["bench", "examples/bench-generation.yaml", "--cache", join(dir, "cache")];
    const r = await calibkit([...args, "--out", join(dir, "a")]);
    expect(r.code, r.stderr).toBe(0);
    // A prompt the fixture repeats is computed once and read from the cache for its second item.
    const computedOf = new Map<string, number>();
    for (const m of MODEL_FILES) {
      // One progress line per model, as the multiple-choice tasks show them, and opened once (no empty lane).
      expect(r.stderr).toMatch(new RegExp(`evidence ${m}: 32/32 in`));
      expect(r.stderr).not.toMatch(new RegExp(`evidence ${m}: 0/0`));
      const counts = new RegExp(`evidence ${m} story-answers: 32 items \\((\\d+) cached, (\\d+) computed\\)`).exec(r.stderr);
      expect(counts, r.stderr).not.toBeNull();
      expect(Number(counts![1]) + Number(counts![2])).toBe(32);
      expect(Number(counts![2])).toBeGreaterThan(24);
      computedOf.set(m, Number(counts![2]));
    }
    const s = JSON.parse(await readFile(join(dir, "a", "summary.json"), "utf8")) as BenchSummary;
    expect(s.rows).toEqual([]);
    expect(s.scorers).toEqual(SCORERS);
    const rows = s.generation!;
    expect(rows).toHaveLength(MODEL_FILES.length * SCORERS.length * ALPHAS.length);
    for (const m of MODEL_FILES) {
      for (const scorer of SCORERS) {
        for (const alpha of ALPHAS) {
          const row = rows.find((x) => x.model.endsWith(m) && x.scorer === scorer && x.alpha === alpha);
          expect(row, `${m} ${scorer} ${alpha}`).toBeDefined();
          const g = row!.guarantee;
          expect(row!.queryType).toBe("gate");
          expect(row!.items).toBe(32);
          expect(row!.grader).toMatch(/^generic: /);
          expect(g.repeats).toBe(5);
          expect(g.value.perRepeat).toHaveLength(5);
          // Every repeat's realized risk of approving a wrong answer lies inside its finite-sample band.
          expect(g.inBand, `${m} ${scorer} ${alpha}: ${g.value.perRepeat} against ${JSON.stringify(g.bands)}`).toBe(5);
          expect(g.target).toBe(alpha);
          expect(g.abstention!.mean).toBeGreaterThanOrEqual(0);
          expect(g.abstention!.mean).toBeLessThanOrEqual(1);
          expect(g.eceBefore.mean).toBeGreaterThanOrEqual(0);
          expect(g.eceAfter.mean).toBeGreaterThanOrEqual(0);
          expect(row!.riskCoverage.coverage.length).toBeGreaterThan(1);
        }
        // The ranking metrics read every item and do not depend on α.
        const pair = rows.filter((x) => x.model.endsWith(m) && x.scorer === scorer);
        expect(pair[0]!.prr).toBe(pair[1]!.prr);
      }
    }
    // stories260K answers the fixture sensibly: its greedy answers are partly right and MSP ranks them better than chance.
    const msp = rows.find((x) => x.model.endsWith("stories260K.gguf") && x.scorer === "MaximumSequenceProbability")!;
    expect(msp.accuracy).toBeGreaterThan(0.2);
    expect(msp.accuracy).toBeLessThan(1);
    expect(msp.rocAuc).toBeGreaterThan(0.6);
    expect(s.evidence.map((e) => [e.task, e.items, e.computed, e.modelCalls > 0])).toEqual(MODEL_FILES.map((m) => ["story-answers", 32, computedOf.get(m), true]));

    const csv = (await readFile(join(dir, "a", "generation.csv"), "utf8")).trim().split("\n");
    expect(csv[0]).toMatch(/^model,task,generation_task,query_type,scorer,level,alpha,repeats,items,.*accuracy,grader,roc_auc,prr,rcc_auc,ece_before_mean,.*ece_after_mean,.*realized_mean,.*band_low,band_high,in_band,target,abstention_mean/);
    expect(csv).toHaveLength(1 + rows.length);
    const head = csv[0]!.split(",");
    for (const row of rows) {
      const line = csv.find((l) => l.startsWith(`${row.model},story-answers,generic,gate,${row.scorer},${row.level},${row.alpha},`));
      expect(line, `${row.model} ${row.scorer} ${row.alpha}`).toBeDefined();
      const cells = line!.split(",");
      expect(Number(cells[head.indexOf("realized_mean")])).toBeCloseTo(row.guarantee.value.mean, 12);
      expect(Number(cells[head.indexOf("abstention_mean")])).toBeCloseTo(row.guarantee.abstention!.mean, 12);
    }

    const html = await readFile(join(dir, "a", "report.html"), "utf8");
    expect(html).toContain(`<table id="bench-generation">`);
    for (const row of rows) {
      const tr = html.match(new RegExp(`<tr data-model="${row.model.split("/").pop()}" data-task="story-answers" data-scorer="${row.scorer}" data-alpha="${row.alpha}">([\\s\\S]*?)</tr>`));
      expect(tr, `${row.model} ${row.scorer} ${row.alpha}`).not.toBeNull();
      expect(tr![1]).toContain(`<td data-field="in-band" class=ok>5/5</td>`);
      expect(tr![1]).toContain(`<td data-field="value">${row.guarantee.value.mean.toFixed(3)} ± ${row.guarantee.value.sd.toFixed(3)}`);
      expect(tr![1]).toContain(`<td data-field="abstention">${row.guarantee.abstention!.mean.toFixed(3)}`);
    }
    // Scorers × models side by side: one row per scorer, a ROC-AUC and PRR pair per model.
    const side = html.match(/<table class="bench-scorers-by-model" data-task="story-answers">([\s\S]*?)<\/table>/)![1]!;
    for (const scorer of SCORERS) expect(side).toMatch(new RegExp(`<tr><td>${scorer}</td>(<td>[^<]*</td>){4}</tr>`));
    if (existsSync(CHROMIUM) || process.env.CI) {
      const page = await openReport(join(dir, "a", "report.html"), join(dir, "bench.png"));
      expectBenchFiguresDrawn(page, [...GENERATION_FIGURE_IDS, "bench-throughput"]);
    }

    // Again (another output folder): every answer from the cache, no model call, the same rows.
    const again = await calibkit([...args, "--out", join(dir, "b"), "--quiet"]);
    expect(again.code, again.stderr).toBe(0);
    const s2 = JSON.parse(await readFile(join(dir, "b", "summary.json"), "utf8")) as BenchSummary;
    expect(s2.evidence.map((e) => [e.hits, e.computed, e.modelCalls])).toEqual(MODEL_FILES.map(() => [32, 0, 0]));
    expect(s2.generation!.map(({ seconds: _s, ...x }) => x)).toEqual(rows.map(({ seconds: _s, ...x }) => x));
  }, 600_000);

  it("refuses an unknown scorer, or free-form fields on a multiple-choice task, before loading any model", async () => {
    const dir = await mkdtemp(join(tmpdir(), "calibkit-bench-generation-bad-"));
    const file = join(dir, "suite.yaml");
    writeFileSync(file, "models: [stories260K.gguf]\nscorers: [MaximumSequenceProbability, SemanticEntropyy]\ntasks:\n  - name: t\n    task: generic\nalphas: [0.1]\n");
    const r = await calibkit(["bench", file, "--out", join(dir, "o")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/suite\.yaml: scorers\[1\]: unknown scorer "SemanticEntropyy"; calibkit has lm-polygraph's MaximumSequenceProbability, /);
    writeFileSync(file, "models: [stories260K.gguf]\ntasks:\n  - name: t\n    task: generic\n    scorers: [Nope]\nalphas: [0.1]\n");
    expect((await calibkit(["bench", file])).stderr).toMatch(/tasks\[0\]\.scorers\[0\]: unknown scorer "Nope"/);
    writeFileSync(file, "models: [stories260K.gguf]\ntasks:\n  - name: t\n    task: squad\nalphas: [0.1]\n");
    expect((await calibkit(["bench", file])).stderr).toMatch(/tasks\[0\]\.task: must be one of triviaqa, nq_open, gsm8k, truthfulqa_gen, generic, got "squad"/);
    writeFileSync(file, "models: [stories260K.gguf]\ntasks:\n  - name: t\n    task: generic\n    top_p: 1.5\nalphas: [0.1]\n");
    expect((await calibkit(["bench", file])).stderr).toMatch(/tasks\[0\]\.top_p: /);
    writeFileSync(file, "models: [stories260K.gguf]\ntasks:\n  - name: t\n    task: generic\n    query_type: set\nalphas: [0.1]\n");
    expect((await calibkit(["bench", file])).stderr).toMatch(/tasks\[0\]\.query_type: a free-form task runs gate or belief queries, got "set"/);
    writeFileSync(file, "models: [stories260K.gguf]\ntasks:\n  - name: t\n    dataset: ../fixtures/story-cloze.jsonl\n    samples: 3\nmethods: [LAC]\nalphas: [0.1]\n");
    expect((await calibkit(["bench", file])).stderr).toMatch(/tasks\[0\]\.samples: applies to free-form tasks: give task:/);
    // A multiple-choice task still needs methods; a suite of free-form tasks does not.
    writeFileSync(file, "models: [stories260K.gguf]\ntasks:\n  - name: t\n    dataset: /work/none.jsonl\nalphas: [0.1]\n");
    expect((await calibkit(["bench", file])).stderr).toMatch(/methods: must be a non-empty list/);
  }, 60_000);
});
