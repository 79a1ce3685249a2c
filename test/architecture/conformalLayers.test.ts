// The conformal engine's sub-folders stand on each other in layers (docs/architecture.md draws them): a folder
// imports only the folders below it, and the engine's shared files (errors.ts, registry.ts).
import { readFileSync } from "node:fs";
import { dirname, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { importGraph } from "./importGraph.js";

const conformalDir = resolve(dirname(fileURLToPath(import.meta.url)), "../../src/conformal");

/** Sub-folder → the sub-folders its files may import. */
const LAYERS: Record<string, string[]> = {
  numeric: [],
  rows: [],
  strata: ["numeric"],
  sets: ["numeric", "rows", "strata"],
  beliefs: ["numeric", "rows"],
  intervals: ["numeric", "rows", "strata"],
  risk: ["numeric", "strata", "sets"],
  monitoring: ["numeric"],
};
/** Files at the top of the folder every sub-folder may import. */
const SHARED = new Set(["errors.ts", "registry.ts"]);

describe("layers of src/conformal/", () => {
  const graph = importGraph(conformalDir);
  const place = (file: string) => relative(conformalDir, file).split(sep);

  it("has exactly the sub-folders of the table, each with its index.ts", () => {
    const folders = new Set([...graph.keys()].map(place).filter((p) => p.length > 1).map((p) => p[0]!));
    expect([...folders].sort()).toEqual(Object.keys(LAYERS).sort());
    for (const folder of folders) expect(graph.has(resolve(conformalDir, folder, "index.ts"))).toBe(true);
  });

  it("opens every file with a comment saying why it is there", () => {
    const bare = [...graph.keys()].filter((file) => !readFileSync(file, "utf8").startsWith("// ")).map((file) => place(file).join("/"));
    expect(bare).toEqual([]);
  });

  it("imports only down the layers, never another folder's face", () => {
    const violations: string[] = [];
    for (const [file, targets] of graph) {
      const [folder, ...rest] = place(file);
      if (rest.length === 0) continue; // the engine's own top files: its faces and the workflow verb
      for (const target of targets) {
        const to = place(target);
        const where = `${folder}/${rest.join("/")} imports ${to.join("/")}`;
        if (to.length === 1) {
          if (!SHARED.has(to[0]!)) violations.push(where);
        } else if (to[0] !== folder && (!LAYERS[folder!]!.includes(to[0]!) || to.at(-1) === "index.ts")) {
          violations.push(where);
        }
      }
    }
    expect(violations).toEqual([]);
  });
});
