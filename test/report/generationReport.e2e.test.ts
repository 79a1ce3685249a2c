// The report of a free-form run, per scorer (issue 27, point 7): from a real run's summary (stories260K, the
// bundled generic fixture, K = 3), report.html gives every scorer computed its ROC-AUC, PRR, ECE before and after
// Venn–Abers, its risk–coverage curve, the gate's realized risk over 20 repeated splits against each repeat's band,
// and its abstention rate, each with the summary's value; the risk–coverage chart is drawn from the curves' data.
import { existsSync } from "node:fs";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { riskCoverageChart } from "../../src/report/charts/riskCoverage.js";
import type { QueryRunSummary } from "../../src/report/index.js";
import { runCalibration } from "../../src/run/index.js";
import { GGUF } from "../cliProcess.js";

const f = (x: number, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : "—");
/** The cells of the table row of `scorer` in the table that starts at `anchor`. */
function rowOf(html: string, anchor: string, scorer: string): string {
  const table = html.slice(html.indexOf(anchor));
  const at = table.indexOf(`<tr data-scorer="${scorer}"`);
  expect(at, `${anchor}: ${scorer}`).toBeGreaterThan(0);
  return table.slice(at, table.indexOf("</tr>", at));
}

describe.skipIf(!existsSync(GGUF))("a free-form run's report, per scorer", () => {
  it("shows each scorer's ranking, calibration, risk–coverage curve, guarantee over repeats and abstention rate with its value", async () => {
    const dir = await mkdtemp(join(tmpdir(), "calibkit-generation-report-"));
    const result = await runCalibration({
      model: GGUF, generation: { task: "generic", samples: 3, maxTokens: 8 }, queryType: "gate", alpha: 0.3, limit: 32, seed: 1, cache: join(dir, "cache"), out: join(dir, "out"),
    });
    const s = result.summary as QueryRunSummary;
    const g = s.section.generation!;
    // Every scorer the level allows, each with its guarantee over 20 seeded splits of the run's 32 graded answers.
    expect(g.scorers.length).toBeGreaterThan(20);
    const html = await readFile(join(dir, "out", "report.html"), "utf8");
    expect(html).toContain("<h2>Each scorer's guarantee over 20 repeats</h2>");
    for (const sc of g.scorers) {
      const q = sc.guarantee!;
      expect(q.queryType).toBe("gate");
      expect(q.repeats).toBe(20);
      expect(q.calibration + q.test).toBe(32);
      expect(q.bands).toHaveLength(20);
      // The gate keeps its promise with every scorer: each repeat's realized risk inside its band.
      expect(q.inBand, `${sc.scorer}: ${q.value.perRepeat} against ${JSON.stringify(q.bands)}`).toBe(20);
      expect(q.abstention!.mean).toBeGreaterThanOrEqual(0);
      expect(q.abstention!.mean).toBeLessThanOrEqual(1);

      const ranking = rowOf(html, "<th>scorer (lm-polygraph's name)</th>", sc.scorer);
      for (const v of [sc.rocAuc, sc.prr, sc.rccAuc, sc.eceBefore, sc.eceAfter]) expect(ranking, sc.scorer).toContain(`<td>${f(v)}</td>`);
      const guarantee = rowOf(html, `<table class="wide" id="scorer-guarantees">`, sc.scorer);
      expect(guarantee).toContain(`<td data-field="value">${f(q.value.mean)} ± ${f(q.value.sd)} <small>(${f(q.value.min)}–${f(q.value.max)})</small></td>`);
      expect(guarantee).toContain(`<td data-field="band">${f(Math.min(...q.bands.map((b) => b[0])))}–${f(Math.max(...q.bands.map((b) => b[1])))}</td>`);
      expect(guarantee).toContain(`<td data-field="in-band" class=ok>20/20</td>`);
      expect(guarantee).toContain(`<td data-field="abstention">${f(q.abstention!.mean)} ± ${f(q.abstention!.sd)}</td>`);
      expect(guarantee).toContain(`<td data-field="ece-before">${f(q.eceBefore.mean, 4)} ± ${f(q.eceBefore.sd, 4)}</td>`);
      expect(guarantee).toContain(`<td data-field="ece-after">${f(q.eceAfter.mean, 4)} ± ${f(q.eceAfter.sd, 4)}</td>`);
      const curve = rowOf(html, `<details id="risk-coverage-points">`, sc.scorer);
      expect(sc.riskCoverage.coverage.length).toBeGreaterThan(1);
      expect(curve).toContain(sc.riskCoverage.coverage.map((c, k) => `${f(c, 2)}→${f(sc.riskCoverage.risk[k]!)}`).join(" "));
    }
    // The chosen scorer's curve is drawn first and thickest, from its data; the SVG carries its legend and lines.
    const option = riskCoverageChart(g) as { series: { name: string; data: [number, number][] }[] };
    expect(option.series[0]!.name).toBe("MaximumSequenceProbability");
    const chosen = g.scorers.find((x) => x.scorer === g.scorer)!;
    expect(option.series[0]!.data.map(([c]) => c)).toEqual(chosen.riskCoverage.coverage.map((c) => Number(c.toFixed(4))));
    expect(option.series.every((x) => x.data.length > 1)).toBe(true);
    const figure = html.match(/<figure id="risk-coverage">([\s\S]*?)<\/figure>/)![1]!;
    expect(figure).toContain(">MaximumSequenceProbability</text>");
    expect((figure.match(/<path d="M[^"]*L/g) ?? []).length).toBeGreaterThanOrEqual(option.series.length);
  }, 300_000);
});
