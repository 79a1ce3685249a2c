import { existsSync } from "node:fs";
import { mkdtemp, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIGURE_IDS, writeReport } from "../../src/report/index.js";
import { CHROMIUM, openReport } from "./browser.js";
import { sampleSummary } from "./sampleSummary.js";

describe("report.html in headless Chromium", () => {
  it.skipIf(!existsSync(CHROMIUM) && !process.env.CI)("renders every plot, logs no console error, fetches nothing", async () => {
    const dir = await mkdtemp(join(tmpdir(), "calibkit-browser-"));
    const { reportPath } = await writeReport(dir, sampleSummary());
    const screenshot = join(dir, "report.png");
    const check = await openReport(reportPath, screenshot);
    expect(check.title).toContain("calibkit run");
    expect(check.figures.map((f) => f.id)).toEqual([...FIGURE_IDS]);
    for (const f of check.figures) {
      expect(f.svgs, f.id).toBe(1);
      expect(f.shapes, f.id).toBeGreaterThan(5);
      expect(f.width, f.id).toBeGreaterThan(100);
      expect(f.height, f.id).toBeGreaterThan(100);
    }
    expect(check.consoleErrors).toEqual([]);
    expect(check.requests).toEqual([]);
    expect((await stat(screenshot)).size).toBeGreaterThan(10_000);
  }, 120_000);
});
