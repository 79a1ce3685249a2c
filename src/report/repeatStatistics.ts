// The statistician's section over the repeats of a suite cell (or over the one split of a run): each
// repeat's RunStatistics, folded into mean and spread. One run is one repeat, so both reports draw their
// tables from this one shape (statisticsSection.ts).
import type { RunStatistics } from "./runStatistics.js";

/** Mean, sample standard deviation (0 for one value), least and greatest value over the repeats; NaN values are left out. */
export interface Spread {
  mean: number;
  sd: number;
  min: number;
  max: number;
}

export interface StratumOverRepeats {
  key: string;
  /** Repeats whose test split held this stratum. */
  repeats: number;
  /** Test items per repeat holding it (mean). */
  n: number;
  coverage: Spread;
  averageSize: number;
  /** Clopper–Pearson 95% interval of the coverage; only for a single repeat. */
  ci?: [number, number];
  /** Repeats whose 95% interval lies entirely below the target. */
  under: number;
}

export interface ForecastOverRepeats {
  /** Forecasts per repeat. */
  n: number;
  ece: Spread;
  brier: Spread;
  logLoss: Spread;
}

export interface BaselineOverRepeats {
  name: string;
  rule: string;
  /** k of top-k in each repeat (it is fitted on each repeat's calibration split). */
  k?: number[];
  coverage: Spread;
  averageSize: Spread;
  /** Clopper–Pearson 95% interval of the coverage; only for a single repeat. */
  ci?: [number, number];
  /** Repeats whose 95% interval lies entirely below the target. */
  below: number;
  guaranteed: boolean;
}

export interface CellStatistics {
  repeats: number;
  alpha: number;
  target: number;
  bandLevel: number;
  threshold: { method: string; score: Spread; k: number; n: number; rule: string };
  rates: { n: number; empty: Spread; singleton: Spread; full: Spread };
  coverageByClass: StratumOverRepeats[];
  coverageByGroup: StratumOverRepeats[];
  coverageBySize: StratumOverRepeats[];
  coverageByOptionCount: StratumOverRepeats[];
  sizeStratifiedCoverage: Spread;
  calibration: {
    raw: ForecastOverRepeats;
    vennAbers: ForecastOverRepeats | null;
    topLabel: ForecastOverRepeats & { accuracy: Spread; confidence: Spread };
  };
  baselines: BaselineOverRepeats[];
  /** Each kind of warning once, as the first repeat that gave it worded it, with the number of repeats that gave it. */
  warnings: { code: string; text: string; repeats: number }[];
}

export function spreadOf(values: readonly number[]): Spread {
  const v = values.filter((x) => !Number.isNaN(x));
  if (v.length === 0) return { mean: NaN, sd: NaN, min: NaN, max: NaN };
  const mean = v.reduce((a, b) => a + b, 0) / v.length;
  const sd = v.length > 1 ? Math.sqrt(v.reduce((a, x) => a + (x - mean) ** 2, 0) / (v.length - 1)) : 0;
  return { mean, sd, min: Math.min(...v), max: Math.max(...v) };
}

type Stratum = RunStatistics["coverageByClass"][number];

/** Strata in the order of their first appearance over the repeats (class order is the options'), numeric keys (set sizes) in number order. */
function strataOver(lists: readonly Stratum[][], target: number): StratumOverRepeats[] {
  const keys: string[] = [];
  const by = new Map<string, Stratum[]>();
  for (const list of lists) {
    for (const s of list) {
      if (!by.has(s.key)) (keys.push(s.key), by.set(s.key, []));
      by.get(s.key)!.push(s);
    }
  }
  if (keys.every((k) => /^-?\d+$/.test(k))) keys.sort((a, b) => Number(a) - Number(b));
  return keys.map((key) => {
    const xs = by.get(key)!;
    return {
      key, repeats: xs.length, n: xs.reduce((a, s) => a + s.n, 0) / xs.length, coverage: spreadOf(xs.map((s) => s.coverage)),
      averageSize: xs.reduce((a, s) => a + s.averageSize * s.n, 0) / xs.reduce((a, s) => a + s.n, 0),
      ...(lists.length === 1 ? { ci: xs[0]!.ci } : {}), under: xs.filter((s) => s.ci[1] < target).length,
    };
  });
}

function forecastOver(fs: readonly RunStatistics["calibration"]["raw"][]): ForecastOverRepeats {
  return { n: fs[0]!.n, ece: spreadOf(fs.map((f) => f.ece)), brier: spreadOf(fs.map((f) => f.brier)), logLoss: spreadOf(fs.map((f) => f.logLoss)) };
}

/** Folds the statistics of each repeat (at least one, same α and method) into one CellStatistics. */
export function overRepeats(each: readonly RunStatistics[]): CellStatistics {
  if (each.length === 0) throw new RangeError("overRepeats needs the statistics of at least one repeat");
  const first = each[0]!;
  const target = first.target;
  const va = each.map((s) => s.calibration.vennAbers).filter((x) => x !== null);
  const warnings = new Map<string, { code: string; text: string; repeats: number }>();
  for (const s of each) {
    s.warnings.forEach((text, i) => {
      const code = s.warningCodes?.[i] ?? text;
      const w = warnings.get(code);
      if (w) w.repeats++;
      else warnings.set(code, { code, text, repeats: 1 });
    });
  }
  return {
    repeats: each.length, alpha: first.alpha, target, bandLevel: first.bandLevel,
    threshold: { method: first.threshold.method, score: spreadOf(each.map((s) => s.threshold.score)), k: first.threshold.k, n: first.threshold.n, rule: first.threshold.rule },
    rates: {
      n: first.rates.n, empty: spreadOf(each.map((s) => s.rates.empty)), singleton: spreadOf(each.map((s) => s.rates.singleton)),
      full: spreadOf(each.map((s) => s.rates.full)),
    },
    coverageByClass: strataOver(each.map((s) => s.coverageByClass), target),
    coverageByGroup: strataOver(each.map((s) => s.coverageByGroup), target),
    coverageBySize: strataOver(each.map((s) => s.coverageBySize), target),
    coverageByOptionCount: strataOver(each.map((s) => s.coverageByOptionCount ?? []), target),
    sizeStratifiedCoverage: spreadOf(each.map((s) => s.sizeStratifiedCoverage)),
    calibration: {
      raw: forecastOver(each.map((s) => s.calibration.raw)),
      vennAbers: va.length ? forecastOver(va) : null,
      topLabel: {
        ...forecastOver(each.map((s) => s.calibration.topLabel)),
        accuracy: spreadOf(each.map((s) => s.calibration.topLabel.accuracy)), confidence: spreadOf(each.map((s) => s.calibration.topLabel.confidence)),
      },
    },
    baselines: first.baselines.map((b) => {
      const xs = each.map((s) => s.baselines.find((x) => x.name === b.name)!).filter(Boolean);
      return {
        name: b.name, rule: b.rule, ...(b.k !== undefined ? { k: xs.map((x) => x.k!) } : {}),
        coverage: spreadOf(xs.map((x) => x.coverage)), averageSize: spreadOf(xs.map((x) => x.averageSize)),
        ...(each.length === 1 ? { ci: b.ci } : {}), below: xs.filter((x) => x.ci[1] < target).length, guaranteed: b.guaranteed,
      };
    }),
    warnings: [...warnings.values()],
  };
}
