// Routing cascades: stage s answers when its confidence ≥ τ_s, else defers; the last stage always answers.
// Thresholds come from a fixed grid per stage, and every configuration is certified with a union bound
// over the grid (Learn then Test, Angelopoulos et al. 2021, with Bonferroni): cost_budget maximises
// empirical accuracy among configurations whose Hoeffding upper bound on mean cost is ≤ target_cents;
// accuracy picks the cheapest configuration whose Hoeffding–Bentkus p-value for "error > α" is ≤ δ/|grid|.

import { ConformalError, checkUnitOpen, invalid, assertKind } from "../errors.js";
import { hoeffdingBentkusPValue } from "./learnThenTest.js";

export interface RouteExamples {
  /** Number of stages S (≥ 1). */
  readonly stages: number;
  /** confidence[i*S + s]: stage s's confidence on example i. */
  readonly confidence: ArrayLike<number>;
  /** correct[i*S + s]: whether stage s's answer to example i is correct (1/true). */
  readonly correct: ArrayLike<number | boolean>;
  /** Cost in cents of calling stage s on example i (cost[i*S + s]), or one cost per stage (length S). */
  readonly cost: ArrayLike<number>;
}

export interface RouteOptions {
  readonly guarantee: "cost_budget" | "accuracy";
  /** cost_budget: the bound on expected cost per query, in cents. */
  readonly targetCents?: number;
  /** accuracy: the bound on error rate (accuracy ≥ 1 − α). */
  readonly alpha?: number;
  /** Probability that the bound fails. Default 0.05. */
  readonly delta?: number;
  /** Threshold grid per stage (default 0, 0.05, …, 1 and +∞ = always defer). Fixed before seeing data. */
  readonly grid?: readonly number[];
}

export interface CalibratedRoute {
  readonly kind: "route";
  readonly guarantee: "cost_budget" | "accuracy";
  readonly stages: number;
  readonly n: number;
  /** τ_s for stages 0..S−2; null when no configuration meets the guarantee. */
  readonly thresholds: number[] | null;
  readonly feasible: boolean;
  /** Empirical accuracy and mean cost (cents) of the chosen configuration on the calibration data. */
  readonly accuracy: number;
  readonly meanCost: number;
  /** cost_budget: Hoeffding upper confidence bound on the mean cost; accuracy: the HB p-value. */
  readonly certificate: number;
  readonly configurations: number;
}

export const DEFAULT_ROUTE_GRID: readonly number[] = [...Array.from({ length: 21 }, (_, i) => i / 20), Infinity];
const MAX_WORK = 5e7;

export function calibrateRoute(examples: RouteExamples, options: RouteOptions): CalibratedRoute {
  const S = examples.stages;
  if (!Number.isInteger(S) || S < 1) throw invalid("stages must be a positive integer", "stages");
  const n = examples.confidence.length / S;
  if (!Number.isInteger(n) || examples.correct.length !== n * S) throw invalid("confidence and correct must hold n × stages values", "confidence");
  const perStageCost = examples.cost.length === S && n !== 1;
  if (!perStageCost && examples.cost.length !== n * S) throw invalid("cost must hold one value per stage or n × stages values", "cost");
  const cost = (i: number, s: number) => (perStageCost ? examples.cost[s]! : examples.cost[i * S + s]!);
  const delta = options.delta ?? 0.05;
  checkUnitOpen(delta, "delta");
  const grid = options.grid ?? DEFAULT_ROUTE_GRID;
  const configs = grid.length ** (S - 1);
  if (configs * Math.max(n, 1) > MAX_WORK) throw new ConformalError("TOO_LARGE", `${configs} configurations × ${n} examples exceeds ${MAX_WORK}`, { field: "grid" });
  let maxCost = 0;
  for (let i = 0; i < n; i++) {
    let c = 0;
    for (let s = 0; s < S; s++) {
      const v = cost(i, s);
      if (!(v >= 0 && Number.isFinite(v))) throw invalid(`cost of stage ${s} must be a finite number ≥ 0`, "cost");
      c += v;
    }
    maxCost = Math.max(maxCost, c);
  }
  if (options.guarantee === "cost_budget") {
    if (!(typeof options.targetCents === "number" && options.targetCents >= 0)) throw invalid("cost_budget needs targetCents ≥ 0", "target_cents");
  } else if (options.guarantee === "accuracy") checkUnitOpen(options.alpha ?? NaN, "alpha");
  else throw new ConformalError("UNKNOWN_METHOD", `unknown route guarantee "${String(options.guarantee)}"`, { field: "guarantee" });

  const tau = new Array<number>(Math.max(S - 1, 0)).fill(0);
  const digits = new Int32Array(Math.max(S - 1, 0));
  let best: { thresholds: number[]; accuracy: number; meanCost: number; certificate: number } | null = null;
  const slack = n ? maxCost * Math.sqrt(Math.log(configs / delta) / (2 * n)) : Infinity;
  for (let c = 0; c < configs; c++) {
    for (let s = 0; s < S - 1; s++) tau[s] = grid[digits[s]!]!;
    let right = 0;
    let spent = 0;
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (; s < S - 1; s++) {
        spent += cost(i, s);
        if (examples.confidence[i * S + s]! >= tau[s]!) break;
      }
      if (s === S - 1) spent += cost(i, s);
      const ok = examples.correct[i * S + s];
      if (ok === true || ok === 1) right++;
    }
    const accuracy = n ? right / n : 0;
    const meanCost = n ? spent / n : 0;
    if (options.guarantee === "cost_budget") {
      const ucb = meanCost + slack;
      if (ucb <= options.targetCents! && (!best || accuracy > best.accuracy || (accuracy === best.accuracy && meanCost < best.meanCost))) {
        best = { thresholds: [...tau], accuracy, meanCost, certificate: ucb };
      }
    } else {
      const p = hoeffdingBentkusPValue(1 - accuracy, n, options.alpha!);
      if (p <= delta / configs && (!best || meanCost < best.meanCost || (meanCost === best.meanCost && accuracy > best.accuracy))) {
        best = { thresholds: [...tau], accuracy, meanCost, certificate: p };
      }
    }
    for (let s = 0; s < S - 1; s++) {
      if (++digits[s]! < grid.length) break;
      digits[s] = 0;
    }
  }
  return Object.freeze({
    kind: "route" as const,
    guarantee: options.guarantee,
    stages: S,
    n,
    thresholds: best ? best.thresholds : null,
    feasible: best !== null,
    accuracy: best ? best.accuracy : NaN,
    meanCost: best ? best.meanCost : NaN,
    certificate: best ? best.certificate : NaN,
    configurations: configs,
  });
}

/** Whether stage `stage` answers at this confidence. Infeasible calibrations defer to the last stage. */
export function routeStep(cal: CalibratedRoute, stage: number, confidence: number): "answer" | "defer" {
  assertKind(cal, "route", "routeStep");
  if (!Number.isInteger(stage) || stage < 0 || stage >= cal.stages) throw invalid(`stage must be in 0..${cal.stages - 1}`, "stage");
  if (stage === cal.stages - 1) return "answer";
  if (!cal.thresholds) return "defer";
  return confidence >= cal.thresholds[stage]! ? "answer" : "defer";
}
