// Chart layout in the browser the reports are read in: in every figure of a run report and a bench report, no
// two texts overlap — the legend has its own band above the plot, and a target line's label sits where
// neither the legend, an axis name nor a tick label can be (issue 30: "chart labels overlapping the legend and
// the target line").
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { describe, expect, it } from "vitest";
import { benchFigures } from "../../src/report/benchHtml.js";
import { figuresOf } from "../../src/report/index.js";
import { CHROMIUM } from "./browser.js";
import { sampleBench } from "./sampleBench.js";
import { sampleGenerationBench } from "./sampleGenerationBench.js";
import { sampleSummary } from "./sampleSummary.js";

interface Box { text: string; x: number; y: number; w: number; h: number }

async function textBoxes(svgs: { id: string; svg: string }[]): Promise<Record<string, Box[]>> {
  const profile = await mkdtemp(join(tmpdir(), "calibkit-chromium-"));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const page = await context.newPage();
    await page.setContent(`<!doctype html><body>${svgs.map((f) => `<div id="${f.id}">${f.svg}</div>`).join("")}</body>`);
    return await page.evaluate((ids) => Object.fromEntries(ids.map((id) => [id, [...document.querySelectorAll(`#${id} text`)]
      .filter((t) => (t.textContent ?? "").trim() !== "" && getComputedStyle(t).display !== "none" && t.getAttribute("opacity") !== "0")
      .map((t) => { const r = t.getBoundingClientRect(); return { text: t.textContent!, x: r.x, y: r.y, w: r.width, h: r.height }; })])), svgs.map((f) => f.id));
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
}

const overlap = (a: Box, b: Box) => a.x < b.x + b.w - 0.5 && b.x < a.x + a.w - 0.5 && a.y < b.y + b.h - 0.5 && b.y < a.y + a.h - 0.5;

describe("chart texts", () => {
  it("never overlap: legend, target-line label, axis names and tick labels each have their own place", async () => {
    const figures = [...figuresOf(sampleSummary()), ...benchFigures(sampleBench()), ...benchFigures(sampleGenerationBench())];
    expect(figures.map((f) => f.id)).toContain("bench-scorer-risk");
    const boxes = await textBoxes(figures.map((f, i) => ({ id: `f${i}-${f.id}`, svg: f.svg })));
    const clashes: string[] = [];
    for (const [id, texts] of Object.entries(boxes)) {
      for (let i = 0; i < texts.length; i++) {
        for (let j = i + 1; j < texts.length; j++) if (overlap(texts[i]!, texts[j]!)) clashes.push(`${id}: "${texts[i]!.text}" × "${texts[j]!.text}"`);
      }
    }
    expect(Object.values(boxes).flat().some((b) => /^target /.test(b.text))).toBe(true);
    expect(clashes).toEqual([]);
  }, 60_000);
});
