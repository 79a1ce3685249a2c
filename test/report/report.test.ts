import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIGURE_IDS, figuresOf, renderReport, writeReport } from "../../src/report/index.js";
import { sampleSummary } from "./sampleSummary.js";

describe("report", () => {
  it("renders every figure as an echarts SVG with drawn content", () => {
    const figures = figuresOf(sampleSummary());
    expect(figures.map((f) => f.id)).toEqual([...FIGURE_IDS]);
    for (const f of figures) {
      expect(f.svg.startsWith("<svg")).toBe(true);
      expect((f.svg.match(/<path /g) ?? []).length).toBeGreaterThan(3);
    }
  });

  it("is self-contained: no script, no external resource", () => {
    const html = renderReport(sampleSummary());
    expect(html).not.toMatch(/<script|<link |src="http|href="http|@import/i);
    for (const id of FIGURE_IDS) expect(html).toContain(`<figure id="${id}">`);
    expect(html).toContain("0 disagreements");
  });

  it("lists disagreements by query and field, escaped", () => {
    const html = renderReport(sampleSummary({
      crossCheck: { answers: 2, fields: 10, disagreements: [{ query: "q<1>", field: "set", service: ["A"], local: ["A", "B"] }] },
    }));
    expect(html).toContain("1 disagreements");
    expect(html).toContain("q&lt;1&gt;");
    expect(html).toContain("[&quot;A&quot;,&quot;B&quot;]");
  });

  it("writes summary.json and report.html; the JSON round-trips", async () => {
    const dir = await mkdtemp(join(tmpdir(), "calibkit-report-"));
    const s = sampleSummary();
    const { summaryPath, reportPath } = await writeReport(join(dir, "out"), s);
    expect(JSON.parse(await readFile(summaryPath, "utf8"))).toEqual(s);
    // echarts numbers its CSS classes per instance, so two renderings differ only in those names.
    const html = await readFile(reportPath, "utf8");
    const unnumbered = (h: string) => h.replace(/zr\d+-(cls-)?c?\d+|cls-\d+/g, "");
    expect(unnumbered(html)).toBe(unnumbered(renderReport(s)));
  });
});
