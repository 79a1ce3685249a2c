// The documentation stands on its own: no page points at a file outside the repository (the design notes and
// specifications the project was built from are not shipped), every link between pages resolves, and every
// import a page shows names a subpath the package exports.
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

async function pages(): Promise<{ path: string; text: string }[]> {
  const files = ["README.md", ...(await readdir("docs")).filter((f) => f.endsWith(".md")).map((f) => join("docs", f))];
  return Promise.all(files.map(async (path) => ({ path, text: await readFile(path, "utf8") })));
}

describe("the documentation", () => {
  it("names no file outside the repository", async () => {
    for (const { path, text } of await pages()) {
      expect(text.match(/\bDESIGN\.md\b|\bSTYLE\.md\b|\bspec\/[\w-]+\.md\b/g) ?? [], path).toEqual([]);
    }
  });

  it("links only to files that exist", async () => {
    for (const { path, text } of await pages()) {
      for (const [, target] of text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/i.test(target!)) continue;
        expect(existsSync(resolve(dirname(path), target!)), `${path} → ${target}`).toBe(true);
      }
    }
  });

  it("imports only from subpaths the package exports", async () => {
    const pkg = JSON.parse(await readFile("package.json", "utf8")) as { exports: Record<string, unknown> };
    const exported = new Set(Object.keys(pkg.exports).map((k) => (k === "." ? "calibkit" : `calibkit/${k.slice(2)}`)));
    for (const { path, text } of await pages()) {
      for (const [, from] of text.matchAll(/\bfrom "([^"]+)"/g)) {
        if (from!.startsWith("node:") || !/^(calibkit|\.)/.test(from!)) continue;
        expect(exported.has(from!), `${path} imports from "${from}"`).toBe(true);
      }
    }
  });
});
