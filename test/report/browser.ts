// Opens a report in Debian's headless Chromium (playwright-core, fresh profile, no network) and
// returns what a reader would see: per figure, whether an SVG with drawn content is there, plus
// console errors and any attempted network request.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { expect } from "vitest";

export const CHROMIUM = process.env.CALIBKIT_CHROMIUM ?? "/usr/bin/chromium";
const FLAGS = [
  "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
  "--disable-component-update", "--disable-sync",
];

export interface PageCheck {
  figures: { id: string; svgs: number; shapes: number; width: number; height: number }[];
  consoleErrors: string[];
  requests: string[];
  title: string;
}

export async function openReport(reportPath: string, screenshotPath: string): Promise<PageCheck> {
  const profile = await mkdtemp(join(tmpdir(), "calibkit-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1400, height: 900 },
  });
  try {
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    const requests: string[] = [];
    page.on("console", (m) => { if (m.type() === "error") consoleErrors.push(m.text()); });
    page.on("pageerror", (e) => consoleErrors.push(String(e)));
    await page.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith("file:")) return route.continue();
      requests.push(url);
      return route.abort();
    });
    await page.goto(pathToFileURL(reportPath).href, { waitUntil: "load" });
    const figures = await page.$$eval("figure", (els) =>
      els.map((f) => {
        const svg = f.querySelector("svg");
        const box = svg?.getBoundingClientRect();
        return {
          id: f.id,
          svgs: f.querySelectorAll("svg").length,
          shapes: svg ? svg.querySelectorAll("path, rect, circle, text").length : 0,
          width: box?.width ?? 0,
          height: box?.height ?? 0,
        };
      }),
    );
    await page.screenshot({ path: screenshotPath, fullPage: true });
    return { figures, consoleErrors, requests, title: await page.title() };
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
}

/** A bench report as a reader sees it: the figures `ids` in order, each one SVG with content drawn, nothing fetched, no console error. */
export function expectBenchFiguresDrawn(page: PageCheck, ids: readonly string[]): void {
  expect(page.consoleErrors).toEqual([]);
  expect(page.requests).toEqual([]);
  expect(page.figures.map((f) => f.id)).toEqual([...ids]);
  for (const f of page.figures) {
    expect(f.svgs, f.id).toBe(1);
    expect(f.shapes, f.id).toBeGreaterThan(20);
    expect(f.width, f.id).toBeGreaterThan(300);
  }
}
