// `calibkit bench SUITE.yaml`: many models × tasks × methods × α × repeats in one command, evidence
// computed once through the cache, one comparative report (docs/bench.md).
// Exit codes: 0 done; 1 a failure; 2 bad options or a bad suite file (checked before any model loads).
import { resolve } from "node:path";
import { CalibkitError } from "../../api/index.js";
import { parseCommand, usage } from "../args.js";
import { cacheDirOf, checkOutDir, parseSuite, runSuite, SuiteError } from "../../run/index.js";
import { consoleHooks } from "../run/consoleHooks.js";

export const summary = "Run a benchmark suite (models × tasks × methods × α × repeats) and write one comparative report";

const HELP = `usage: calibkit bench SUITE.yaml [--out DIR] [--cache DIR | --no-cache] [--quiet]

Runs every model × task of the suite once through the evidence cache (servers side by side, one progress
line per model), then every method × α × repeat (independent random splits) on the local conformal engine.
Free-form tasks (task: triviaqa, nq_open, gsm8k, truthfulqa_gen or generic) compare the suite's scorers: models ×
tasks × scorers × α × repeats, every scorer and α reading one generation per model × task. Writes report.html,
summary.json and results.csv (generation.csv for free-form tasks). A killed suite started again reads back what it
computed; a model that fails fails its own cells (exit 1 after writing the rest). docs/bench.md has the
file format.

  --out DIR          output folder (default ./calibkit-bench)
  --cache DIR        evidence cache folder (default: $CALIBKIT_CACHE, else $XDG_CACHE_HOME/calibkit,
                     else ~/.cache/calibkit)
  --no-cache         compute every evidence row and keep none
  --quiet            no progress output
`;

export async function run(argv: string[]): Promise<number> {
  const parsed = parseCommand("bench", argv, {
    out: { type: "string" }, cache: { type: "string" }, "no-cache": { type: "boolean" }, quiet: { type: "boolean" },
  }, HELP, { positionals: true });
  if (typeof parsed === "number") return parsed;
  const [file, ...extra] = parsed.positionals;
  if (!file) return usage("bench", "needs a suite file", HELP);
  if (extra.length > 0) return usage("bench", `unexpected argument "${extra[0]}"`, HELP);
  const v = parsed.values;
  const out = resolve(v.out ?? "calibkit-bench");
  try {
    parseSuite(file);
    await checkOutDir(out);
  } catch (err) {
    if (err instanceof SuiteError || err instanceof CalibkitError) return usage("bench", (err as Error).message);
    throw err;
  }
  try {
    // The suite was checked above, so that a bad file is a usage error (2); runSuite reads it the same way.
    const { summary: s } = await runSuite({ suite: file, out, cache: cacheDirOf(v.cache, v["no-cache"]), ...consoleHooks(v.quiet ?? false) });
    const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
    const lines = s.rows.map((r) => `${r.model.split("/").pop()} ${r.task} ${r.method} α=${r.alpha}: coverage ${pct(r.coverage.mean)} ± ${pct(r.coverage.sd)} (band ${pct(r.band[0])}–${pct(r.band[1])}, ${r.inBand}/${r.repeats} inside), size ${r.meanSetSize.toFixed(2)}`);
    for (const r of s.generation ?? []) {
      const g = r.guarantee;
      const f = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : "–");
      lines.push(`${r.model.split("/").pop()} ${r.task} ${r.scorer}${r.alpha !== null ? ` α=${r.alpha}` : ""}: ROC-AUC ${f(r.rocAuc)}, PRR ${f(r.prr)}, ${r.queryType === "gate" ? "realized risk" : "right-answer frequency"} ${f(g.value.mean)} ± ${f(g.value.sd)} (${g.inBand}/${g.repeats} inside the band)${g.abstention ? `, abstention ${pct(g.abstention.mean)}` : ""}, ECE ${f(g.eceBefore.mean)} → ${f(g.eceAfter.mean)} after Venn–Abers`);
    }
    for (const e of s.evidence) lines.push(`evidence ${e.model.split("/").pop()} ${e.task}: ${e.items} items, ${e.hits} cached, ${e.computed} computed, ${e.modelCalls} model calls, ${e.itemsPerSecond.toFixed(1)} items/s`);
    lines.push(`time: ${s.totalSeconds.toFixed(1)} s`, `wrote ${out}/report.html`, `wrote ${out}/summary.json`, `wrote ${out}/results.csv`, ...(s.generation ? [`wrote ${out}/generation.csv`] : []));
    process.stdout.write(lines.join("\n") + "\n");
    const failures = s.failures ?? [];
    if (failures.length === 0) return 0;
    // The other models' cells are written above; the failed ones resume from the cache on the next run.
    for (const f of failures) process.stderr.write(`calibkit bench: failed: ${f.task} on ${f.model}: ${f.error}\n`);
    process.stderr.write(`calibkit bench: ${failures.length} model × task cell(s) failed; run the same command again to compute only what is missing\n`);
    return 1;
  } catch (err) {
    if (err instanceof CalibkitError) {
      process.stderr.write(`calibkit bench: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}
