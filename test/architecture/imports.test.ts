// The design table of DESIGN.md as a test: imports only go the way it allows, and a folder is entered
// only through its index.ts, its public face.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const srcDir = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");

const ALLOWED: Record<string, string[]> = {
  api: [],
  conformal: [],
  uncertainty: [],
  adapters: ["api"],
  evidence: ["api", "adapters", "store", "uncertainty"],
  client: ["api", "conformal", "uncertainty"],
  durable: ["api"],
  store: ["api"],
  service: ["api", "conformal", "uncertainty", "adapters", "evidence", "durable", "store"],
  mail: ["api", "client", "durable", "store"],
  datasets: ["api"],
  // The report draws the engine's own result types (a stratum's coverage), never a second copy of them.
  report: ["api", "conformal"],
  run: ["api", "conformal", "uncertainty", "adapters", "evidence", "store", "client", "service", "mail", "datasets", "report", "durable"],
};
/**
 * Files a folder offers besides its index.ts: the models-folder rule, since adapters/index.ts loads both
 * inference engines (about 2 s) and a run's defaults or a suite's checks must not wait for them; the
 * engine's set API alone (conformal/setApi.ts), which `calibkit conformal set` loads instead of the whole engine;
 * and the query prompts alone (evidence/prompts.ts), which the service's judge stages use without loading the
 * evidence pipeline's adapters and progress bars at every `calibkit serve` start (about 40 ms).
 */
const SIDE_DOORS = new Set(["adapters/modelsDir.js", "conformal/setApi.js", "evidence/prompts.js"]);
/** Packages a folder may import besides Node's own modules. */
const PACKAGES: Record<string, RegExp> = {
  api: /^zod$/,
  conformal: /^$/,
  // The symmetric eigen-decomposition of the graph scorers and EigenScore; nothing else.
  uncertainty: /^ml-matrix$/,
  store: /^(better-sqlite3|pg|pg-copy-streams)$/,
};

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return name.endsWith(".ts") ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specs = [...text.matchAll(/(?:import|export)\s[^;]*?from\s+"([^"]+)"|import\(\s*"([^"]+)"\s*\)/g)];
  return specs.map((m) => (m[1] ?? m[2])!);
}

const topOf = (path: string) => relative(srcDir, path).split(sep)[0]!;

describe("module boundaries of DESIGN.md", () => {
  const files = tsFiles(srcDir).filter((f) => topOf(f) in ALLOWED);

  it("finds the source folders", () => {
    expect(new Set(files.map(topOf)).size).toBeGreaterThanOrEqual(7);
  });

  it("imports only what the design table allows, through index.ts", () => {
    const violations: string[] = [];
    for (const file of files) {
      const own = topOf(file);
      for (const spec of importsOf(file)) {
        const where = relative(srcDir, file);
        if (spec.startsWith(".")) {
          const target = resolve(dirname(file), spec);
          const targetTop = topOf(target);
          if (targetTop === own) continue;
          if (!ALLOWED[own]!.includes(targetTop)) violations.push(`${where} imports ${targetTop}/ (${spec})`);
          else if (relative(join(srcDir, targetTop), target) !== "index.js" && !SIDE_DOORS.has(relative(srcDir, target).split(sep).join("/"))) {
            violations.push(`${where} reaches past ${targetTop}/index.ts (${spec})`);
          }
        } else if (!spec.startsWith("node:") && own in PACKAGES && !PACKAGES[own]!.test(spec)) {
          violations.push(`${where} imports the package ${spec}`);
        }
      }
    }
    expect(violations).toEqual([]);
  });
});
