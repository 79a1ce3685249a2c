// `calibkit scores FILE.jsonl [--scorers NAME,…] [--metrics]`: lm-polygraph's uncertainty scores for generations
// made anywhere (docs/uncertainty.md). One JSON line out per line in; the metrics table goes to stderr so that
// stdout stays JSON Lines.
import { parseCommand, usage } from "../args.js";
import { DERIVATIONS, SCORERS, scoreItem, scorerByName, type Scorer, type StatisticName } from "../../uncertainty/index.js";
import { readScoreLines, ScoresInputError } from "../scores/readLines.js";
import { formatMetricTable, metricRow } from "../scores/metricsTable.js";

export const summary = "Uncertainty scores (lm-polygraph's estimators) for free-form answers in a JSON Lines file";

const HELP = `usage: calibkit scores FILE.jsonl [--scorers NAME,...] [--metrics]

Each input line is one item: "id", any statistics under lm-polygraph's names (greedy_texts, greedy_log_likelihoods,
entropy, greedy_log_probs, sample_texts, sample_log_probs, sample_log_likelihoods, sample_tokens,
semantic_matrix_entail, semantic_matrix_contra, semantic_classes_entail, greedy_sentence_similarity, p_true,
sample_embeddings) and optionally "correct" (true/false or a quality in [0, 1]). A log-probability of −∞ is
written "-Infinity".

Each output line is {"id", "scores": {NAME: value}} for every requested scorer whose statistics the line has
(higher = more uncertain; "NaN" where the score is undefined, e.g. a mean over no tokens). Scorers that lacked
statistics are named in one warning on stderr.

options:
  --scorers A,B,...   the scorers to run, by lm-polygraph name (default: all of them; --scorers list prints them)
  --metrics           after the scores, print to stderr a table of roc-auc, pr-auc, prr, prr_normalized, rcc-auc,
                      ece (of the mapped confidence and after Venn–Abers), spearmanr and kendalltau per scorer over
                      the lines with "correct"
  -h, --help          this text
`;

/** A missing statistic, with what it could also be derived from. */
const lacking = (s: string) => {
  const from = DERIVATIONS[s as StatisticName]?.from;
  return from ? `${s} (or ${from.join(" and ")})` : s;
};

const encode = (value: unknown) => JSON.stringify(value, (_k, v) => (typeof v === "number" && !Number.isFinite(v) ? String(v) : v));

function listScorers(): string {
  const w = Math.max(...SCORERS.map((s) => s.name.length));
  return SCORERS.map((s) => `${s.name.padEnd(w)}  ${s.level}  ${s.statistics.join(", ")}  confidence ${s.confidence.name}`).join("\n") + "\n";
}

export async function run(argv: string[]): Promise<number> {
  const parsed = parseCommand("scores", argv, { scorers: { type: "string" }, metrics: { type: "boolean" } }, HELP, { positionals: true });
  if (typeof parsed === "number") return parsed;
  if (parsed.values.scorers === "list") {
    process.stdout.write(listScorers());
    return 0;
  }
  const [file, ...more] = parsed.positionals;
  if (!file) return usage("scores", "name the JSON Lines file to score", HELP);
  if (more.length > 0) return usage("scores", `unexpected argument "${more[0]}"`, HELP);
  let scorers: Scorer[] = [...SCORERS];
  if (parsed.values.scorers !== undefined) {
    const names = parsed.values.scorers.split(",").map((s) => s.trim()).filter(Boolean);
    const unknown = names.filter((n) => !scorerByName(n));
    if (unknown.length > 0 || names.length === 0) {
      return usage("scores", `unknown scorer${unknown.length > 1 ? "s" : ""} ${unknown.map((n) => `"${n}"`).join(", ") || "(none named)"}; known: ${SCORERS.map((s) => s.name).join(", ")}`);
    }
    scorers = names.map((n) => scorerByName(n)!);
  }

  const missing = new Map<string, { statistics: Set<string>; lines: number }>();
  const values = new Map<string, number[]>(scorers.map((s) => [s.name, []]));
  const targets = new Map<string, number[]>(scorers.map((s) => [s.name, []]));
  let lines = 0;
  const out: string[] = [];
  const flush = () => { if (out.length) { process.stdout.write(out.join("")); out.length = 0; } };
  try {
    for (const item of readScoreLines(file)) {
      lines++;
      const { scores, missing: lacked } = scoreItem(item.stats, scorers);
      out.push(encode({ id: item.id, scores }) + "\n");
      if (out.length >= 512) flush();
      for (const [name, stats] of Object.entries(lacked)) {
        const m = missing.get(name) ?? { statistics: new Set<string>(), lines: 0 };
        stats.forEach((s) => m.statistics.add(s));
        m.lines++;
        missing.set(name, m);
      }
      if (parsed.values.metrics) {
        for (const [name, v] of Object.entries(scores)) { values.get(name)!.push(v); targets.get(name)!.push(item.correct); }
      }
    }
  } catch (e) {
    flush();
    if (!(e instanceof ScoresInputError) && (e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    process.stderr.write(`calibkit scores: ${e instanceof ScoresInputError ? e.message : `cannot read ${file}: no such file`}\n`);
    return 1;
  }
  flush();
  if (missing.size > 0) {
    const named = [...missing].map(([name, m]) => `${name} (no ${[...m.statistics].map(lacking).join(", ")}; ${m.lines === lines ? "every line" : `${m.lines} of ${lines} lines`})`);
    process.stderr.write(`calibkit scores: warning: not scored where their statistics are missing: ${named.join(", ")}\n`);
  }
  if (parsed.values.metrics) {
    const rows = scorers.filter((s) => values.get(s.name)!.length > 0).map((s) => metricRow(s, values.get(s.name)!, targets.get(s.name)!));
    if (rows.every((r) => r.n === 0)) process.stderr.write('calibkit scores: no line has "correct": no metrics\n');
    else process.stderr.write(formatMetricTable(rows));
  }
  return 0;
}
