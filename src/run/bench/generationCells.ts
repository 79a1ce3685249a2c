// A free-form task's suite rows: each scorer the model's level allows × each α (a gate's target; one row for a
// belief), its ranking of the answers (ROC-AUC, PRR, risk–coverage) and its guarantee over the suite's repeats, all
// from the one set of graded, scored answers (generationLanes.ts).
import type { BenchGenerationRow } from "../../report/index.js";
import { scorerGuarantee } from "../queryTypes/scorerGuarantee.js";
import { scorerMetrics } from "../queryTypes/scorerMetrics.js";
import type { GenerationEvidence } from "./generationLanes.js";
import type { Suite } from "./suite.js";

export function generationRows(suite: Suite, cell: GenerationEvidence): BenchGenerationRow[] {
  const g = cell.task.task.generation;
  const accuracy = cell.items.filter((i) => i.correct).length / cell.items.length;
  const alphas: (number | null)[] = g.queryType === "gate" ? suite.alphas : [null];
  return cell.scorers.flatMap((scorer) => {
    // Ranking metrics read every item; the calibration errors come per repeat with the guarantee.
    const m = scorerMetrics([scorer], cell.items, [])[0]!;
    return alphas.map((alpha): BenchGenerationRow => {
      const t0 = performance.now();
      const guarantee = scorerGuarantee(scorer, cell.items, {
        type: g.queryType, target: alpha ?? suite.alphas[0]!, seed: suite.seed, label: cell.task.task.name, repeats: suite.repeats, calibrationFraction: suite.calibrationFraction,
      });
      return {
        model: cell.model, task: cell.task.task.name, generationTask: g.options.task, queryType: g.queryType, scorer: scorer.name, level: scorer.level, alpha,
        items: cell.items.length, accuracy, grader: cell.grader, rocAuc: m.rocAuc, prr: m.prr, rccAuc: m.rccAuc, riskCoverage: m.riskCoverage,
        guarantee, seconds: (performance.now() - t0) / 1000,
      };
    });
  });
}
