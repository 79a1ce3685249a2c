// `runSuite`: a benchmark suite (docs/bench.md) run from code, what `calibkit bench` does less the printing.
// The suite and the output folder are checked before any model loads; the runner itself is loaded on demand.
import { join, resolve } from "node:path";
import type { BenchSummary } from "../../report/index.js";
import { defaultCacheDir } from "../cacheDir.js";
import { reporterOf, type RunHooks } from "../events.js";
import { checkOutDir } from "../preflight.js";
import { parseSuite, suiteFrom, type Suite, type SuiteDefinition } from "./suite.js";

export interface SuiteOptions {
  /** A suite file (YAML), or a suite in the file's shape, its relative paths taken from the working folder. */
  suite: string | SuiteDefinition;
  /** Folder for report.html, summary.json, results.csv and conditional.csv (and generation.csv); nothing is written without it. */
  out?: string;
  /** The evidence cache folder; null keeps nothing. Default: $CALIBKIT_CACHE, else ~/.cache/calibkit. */
  cache?: string | null;
}

export interface SuiteResult {
  summary: BenchSummary;
  /** null when no `out` folder was given. */
  /** generationPath: generation.csv, written when the suite has free-form tasks. */
  files: { summaryPath: string; reportPath: string; resultsPath: string; conditionalPath: string; generationPath?: string } | null;
}

/** The suite a caller gave, checked: SuiteError names the field at fault. */
export function suiteOf(suite: string | SuiteDefinition): Suite {
  return typeof suite === "string" ? parseSuite(suite) : suiteFrom(suite, { name: "suite", file: "(inline suite)", base: process.cwd() });
}

export async function runSuite(options: SuiteOptions & RunHooks): Promise<SuiteResult> {
  const reporter = reporterOf(options);
  reporter.checkpoint();
  const suite = suiteOf(options.suite);
  const out = options.out === undefined ? undefined : resolve(options.out);
  if (out !== undefined) await checkOutDir(out);
  const cache = options.cache === undefined ? defaultCacheDir() : options.cache === null ? null : resolve(options.cache);
  const { runBench } = await import("./runBench.js");
  const summary = await runBench(suite, { out, cache, reporter });
  const files = out === undefined ? null : {
    summaryPath: join(out, "summary.json"), reportPath: join(out, "report.html"), resultsPath: join(out, "results.csv"), conditionalPath: join(out, "conditional.csv"),
    ...(summary.generation ? { generationPath: join(out, "generation.csv") } : {}),
  };
  return { summary, files };
}
