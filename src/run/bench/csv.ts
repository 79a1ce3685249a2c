// The suite's tables as CSV: results.csv (one line per model × task × method × α, means and spreads over
// the repeats) and conditional.csv (one line per stratum of each cell: by true class, group, set size).
import type { BenchEvidence, BenchGenerationRow, BenchRow } from "../../report/index.js";

const csvCell = (v: unknown) => (typeof v === "string" && /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : Number.isNaN(v) ? "" : String(v));
const lines = (head: string[], rows: unknown[][]) => [head.join(","), ...rows.map((r) => r.map(csvCell).join(","))].join("\n") + "\n";

const BASELINES = ["top-1", "top-k", "cumulative"] as const;

export function resultsCsv(rows: BenchRow[], evidence: BenchEvidence[]): string {
  const head = ["model", "task", "query_type", "method", "alpha", "repeats", "calibration", "test", "coverage_mean", "coverage_sd", "coverage_min", "coverage_max",
    "band_low", "band_high", "band_level", "in_band", "law_mean", "law_sd", "z", "mean_set_size", "singleton_rate", "empty_rate", "full_rate", "accuracy",
    "threshold_mean", "threshold_sd", "threshold_k", "size_stratified_coverage", "worst_class_coverage", "worst_group_coverage",
    "ece_raw", "ece_raw_sd", "brier_raw", "log_loss_raw", "ece_venn_abers", "ece_venn_abers_sd", "brier_venn_abers", "log_loss_venn_abers",
    ...BASELINES.flatMap((b) => [`${b.replace("-", "")}_coverage`, `${b.replace("-", "")}_coverage_sd`, `${b.replace("-", "")}_mean_size`]), "topk_k",
    "warnings", "evidence_items_per_s", "evidence_tokens_per_s", "evidence_seconds", "cell_seconds"];
  return lines(head, rows.map((r) => {
    const e = evidence.find((x) => x.model === r.model && x.task === r.task)!;
    const st = r.statistics;
    const worst = (xs: { coverage: { mean: number } }[]) => (xs.length ? Math.min(...xs.map((x) => x.coverage.mean)) : NaN);
    const va = st.calibration.vennAbers;
    const base = (name: string) => st.baselines.find((b) => b.name === name);
    return [r.model, r.task, r.queryType, r.method, r.alpha, r.repeats, r.calibration, r.test, r.coverage.mean, r.coverage.sd, r.coverage.min, r.coverage.max,
      r.band[0], r.band[1], r.bandLevel, r.inBand, r.law.mean, r.law.sd, r.law.z, r.meanSetSize, r.singletonRate, r.emptyRate, st.rates.full.mean, r.accuracy,
      st.threshold.score.mean, st.threshold.score.sd, st.threshold.k, st.sizeStratifiedCoverage.mean, worst(st.coverageByClass), worst(st.coverageByGroup),
      st.calibration.raw.ece.mean, st.calibration.raw.ece.sd, st.calibration.raw.brier.mean, st.calibration.raw.logLoss.mean,
      va?.ece.mean ?? NaN, va?.ece.sd ?? NaN, va?.brier.mean ?? NaN, va?.logLoss.mean ?? NaN,
      ...BASELINES.flatMap((b) => [base(b)?.coverage.mean ?? NaN, base(b)?.coverage.sd ?? NaN, base(b)?.averageSize.mean ?? NaN]),
      base("top-k")?.k?.join(" ") ?? "", st.warnings.map((w) => `${w.code}×${w.repeats}`).join(" "),
      e.itemsPerSecond, e.tokensPerSecond ?? "", e.seconds, r.seconds];
  }));
}

export function conditionalCsv(rows: BenchRow[]): string {
  const head = ["model", "task", "method", "alpha", "stratum", "key", "repeats", "test_items_mean", "coverage_mean", "coverage_sd", "coverage_min", "coverage_max", "mean_size", "repeats_under_target"];
  return lines(head, rows.flatMap((r) => ([["class", r.statistics.coverageByClass], ["group", r.statistics.coverageByGroup], ["size", r.statistics.coverageBySize], ["options", r.statistics.coverageByOptionCount.length > 1 ? r.statistics.coverageByOptionCount : []]] as const)
    .flatMap(([kind, strata]) => strata.map((x) => [r.model, r.task, r.method, r.alpha, kind, x.key, x.repeats, x.n, x.coverage.mean, x.coverage.sd, x.coverage.min, x.coverage.max, x.averageSize, x.under]))));
}

/** generation.csv: one line per model × free-form task × scorer × α, the guarantee's figures as mean, sd and range over the repeats. */
export function generationCsv(rows: BenchGenerationRow[], evidence: BenchEvidence[]): string {
  const head = ["model", "task", "generation_task", "query_type", "scorer", "level", "alpha", "repeats", "items", "calibration", "test", "accuracy", "grader",
    "roc_auc", "prr", "rcc_auc", "ece_before_mean", "ece_before_sd", "ece_after_mean", "ece_after_sd",
    "realized_mean", "realized_sd", "realized_min", "realized_max", "band_low", "band_high", "in_band", "target", "abstention_mean", "abstention_sd",
    "evidence_items_per_s", "evidence_seconds", "cell_seconds"];
  return lines(head, rows.map((r) => {
    const e = evidence.find((x) => x.model === r.model && x.task === r.task)!;
    const g = r.guarantee;
    return [r.model, r.task, r.generationTask, r.queryType, r.scorer, r.level, r.alpha ?? "", g.repeats, r.items, g.calibration, g.test, r.accuracy, r.grader,
      r.rocAuc, r.prr, r.rccAuc, g.eceBefore.mean, g.eceBefore.sd, g.eceAfter.mean, g.eceAfter.sd,
      g.value.mean, g.value.sd, g.value.min, g.value.max, Math.min(...g.bands.map((b) => b[0])), Math.max(...g.bands.map((b) => b[1])), g.inBand, g.target,
      g.abstention?.mean ?? NaN, g.abstention?.sd ?? NaN, e.itemsPerSecond, e.seconds, r.seconds];
  }));
}
