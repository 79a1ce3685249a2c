// No two files of src/ import each other, directly or round a longer circle, type-only imports included: a
// circle means a shared type or helper lives in one of its users instead of below both.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { importCircles } from "./importGraph.js";

const srcDir = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");

describe("import circles", () => {
  const planted = mkdtempSync(join(os.tmpdir(), "calibkit-circles-"));
  afterAll(() => rmSync(planted, { recursive: true, force: true }));

  it("are found when planted, type-only and re-exports included, and only they", () => {
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(planted, path)), { recursive: true });
      writeFileSync(join(planted, path), text);
    };
    // a ↔ b, one side type-only.
    write("a.ts", 'import { b } from "./b.js";\nexport interface A { n: number }\nexport const a = () => b;\n');
    write("b.ts", 'import type { A } from "./a.js";\nexport const b = (x: A) => x.n;\n');
    // c → d → e → c through a re-export, a folder's index and a dynamic import.
    write("c.ts", 'export * from "./d.js";\nexport const c = 1;\n');
    write("d.ts", 'export { e } from "./sub/index.js";\n');
    write("sub/index.ts", 'export const e = () => import("../c.js");\n');
    // Not circles: a file importing a circle, a specifier in a comment, a package.
    write("f.ts", 'import { a } from "./a.js";\n// import { f } from "./f.js";\nimport { z } from "zod";\nexport const f = [a, z];\n');
    expect(importCircles(planted)).toEqual(["a.ts → b.ts → a.ts", "c.ts → d.ts → sub/index.ts → c.ts (files: c.ts, d.ts, sub/index.ts)"]);
  });

  it("are none in src/", () => {
    expect(importCircles(srcDir)).toEqual([]);
  });
});
