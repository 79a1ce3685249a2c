// docs/architecture.md is a map of the tree, so it is held to the tree: every file it names exists, its folder
// table is the architecture test's, and its table of the conformal engine's rooms names every file of each.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const doc = readFileSync("docs/architecture.md", "utf8");
const tableRows = (header: string) => {
  const start = doc.indexOf(header);
  const rows: string[][] = [];
  for (const line of doc.slice(start).split("\n").slice(2)) {
    if (!line.startsWith("|")) break;
    rows.push(line.split(" | ").map((cell) => cell.replace(/^\| ?| ?\|$/g, "").trim()));
  }
  return rows;
};

describe("docs/architecture.md", () => {
  it("names only files and folders that exist", () => {
    const paths = new Set([...doc.matchAll(/\b((?:src|bin|test)\/[\w./-]*[\w/])/g)].map((m) => m[1]!));
    expect(paths.size).toBeGreaterThan(40);
    expect([...paths].filter((p) => !existsSync(p))).toEqual([]);
  });

  it("has the folder table of test/architecture/imports.test.ts", () => {
    const source = readFileSync("test/architecture/imports.test.ts", "utf8");
    const body = /const ALLOWED: Record<string, string\[\]> = \{([\s\S]*?)\n\};/.exec(source)![1]!;
    const allowed = Object.fromEntries(
      [...body.matchAll(/^\s*(\w+): \[([^\]]*)\]/gm)].map((m) => [m[1]!, [...m[2]!.matchAll(/"(\w+)"/g)].map((n) => n[1]!).sort()]),
    );
    const documented = Object.fromEntries(
      tableRows("| folder | what it is for | may import |")
        .map((cells) => [/`src\/(\w+)\/`/.exec(cells[0]!)![1]!, cells[2]!] as const)
        .filter(([folder]) => folder !== "cli")
        .map(([folder, may]) => {
          const names = may.split(/,\s*/).map((n) => n.replace(/ and .*| only$/, "").trim());
          if (may.startsWith("everything but ")) return [folder, Object.keys(allowed).filter((f) => f !== folder && f !== "run" && f !== may.slice(15)).sort()];
          return [folder, names.filter((n) => n in allowed).sort()];
        }),
    );
    expect(documented).toEqual(allowed);
  });

  it("names every file of every sub-folder of the conformal engine", () => {
    const rows = tableRows("| sub-folder | what it computes | stands on | files");
    const folders = readdirSync("src/conformal", { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
    expect(rows.map((r) => r[0]!.replace(/[`/]/g, "")).sort()).toEqual(folders.sort());
    for (const row of rows) {
      const folder = join("src/conformal", row[0]!.replace(/`/g, ""));
      const named = new Set([...row[3]!.matchAll(/`([\w/]+\.ts)`/g)].map((m) => m[1]!));
      const files = readdirSync(folder, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts") && f !== "index.ts");
      expect([...files].sort(), folder).toEqual([...named].sort());
    }
  });
});
