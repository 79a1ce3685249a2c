// `calibkit run` on stories260K: the statistician's section of summary.json agrees with the rest of
// the summary (coverage, accuracy, set sizes of the service's answers), and report.html shows its tables.
import { existsSync } from "node:fs";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RunSummary } from "../../src/report/index.js";
import { GGUF, runCalibkit } from "../cliProcess.js";


const calibkit = (args: string[]) => runCalibkit(args);

describe("calibkit run: the statistics section", () => {
  it.skipIf(!existsSync(GGUF))("is consistent with the service's answers and is in the report", async () => {
    const out = await mkdtemp(join(tmpdir(), "calibkit-stats-"));
    const r = await calibkit(["run", "--model", GGUF, "--limit", "300", "--method", "APS", "--out", out]);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(await readFile(join(out, "summary.json"), "utf8")) as RunSummary;
    const st = s.statistics!;
    const m = s.test.n;
    const conformal = st.baselines.find((b) => b.name === "conformal")!;
    expect(conformal.coverage).toBeCloseTo(s.test.coverage, 12);
    expect(conformal.averageSize).toBeCloseTo(s.test.averageSetSize, 12);
    expect(st.baselines.find((b) => b.name === "top-1")!.coverage).toBeCloseTo(s.test.accuracy, 12);
    expect(st.calibration.topLabel.accuracy).toBeCloseTo(s.test.accuracy, 12);
    // Strata partition the test split, and their counts match the service's set sizes.
    expect(st.coverageByClass.reduce((a, r) => a + r.n, 0)).toBe(m);
    expect(st.coverageBySize.map((r) => [Number(r.key), r.n])).toEqual(s.test.setSizes.map((x) => [x.size, x.count]));
    expect(st.coverageBySize.reduce((a, r) => a + r.covered, 0)).toBe(Math.round(s.test.coverage * m));
    expect(st.rates.singleton).toBeCloseTo((s.test.setSizes.find((x) => x.size === 1)?.count ?? 0) / m, 12);
    expect(st.coverageByGroup.length).toBeGreaterThan(1); // the story templates
    // The threshold is the service's: APS on the same n calibration examples.
    expect(st.threshold).toMatchObject({ method: "APS", n: s.profile.n });
    expect(st.calibration.raw.n).toBe(4 * m);
    expect(st.calibration.vennAbers!.n).toBe(4 * m);
    expect(st.warnings.join("\n")).toMatch(/small calibration set: \d+ examples \(recommended \d+\)/);
    const html = await readFile(join(out, "report.html"), "utf8");
    // The console and the report name the same access level: the one the evidence was sent at.
    const level = /model: .* \(llama\.cpp, access level (L\d)/.exec(r.stderr)?.[1];
    expect(level, r.stderr).toBe(s.model.accessLevel);
    expect(html).toContain(`(llama.cpp, access level ${level})`);
    for (const id of ["coverage-by-class", "coverage-by-size", "coverage-by-group", "calibration-errors", "baselines", "threshold"]) {
      expect(html, id).toMatch(new RegExp(`<table[^>]*id="${id}">`));
    }
  }, 180_000);
});
