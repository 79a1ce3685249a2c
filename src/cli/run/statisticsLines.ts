// The console's short form of the statistics section: threshold, answer rates, baselines, warnings.
import type { RunSummary } from "../../report/index.js";

/** 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 901st. */
const ordinal = (k: number): string => {
  const tens = k % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ["th", "st", "nd", "rd"][k % 10] ?? "th";
  return `${k}${suffix}`;
};

const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : "—");

export function statisticsLines(s: RunSummary): string[] {
  const st = s.statistics;
  if (!st) return [];
  const t = st.threshold;
  return [
    `threshold: q̂ = ${Number.isFinite(t.score) ? t.score.toPrecision(4) : "+∞"} (${ordinal(t.k)} of ${t.n} ${t.method} scores); empty ${pct(st.rates.empty)}, singletons ${pct(st.rates.singleton)}; size-stratified coverage ${pct(st.sizeStratifiedCoverage)}`,
    `beside the conformal sets at α = ${st.alpha}: ${st.baselines.filter((b) => !b.guaranteed).map((b) => `${b.name === "top-k" ? `top-${b.k}` : b.name} ${pct(b.coverage)} (size ${b.averageSize.toFixed(2)})`).join(", ")}`,
    `calibration error (ECE): raw probabilities ${st.calibration.raw.ece.toFixed(3)}${st.calibration.vennAbers ? `, Venn–Abers beliefs ${st.calibration.vennAbers.ece.toFixed(3)}` : ""}`,
    ...st.warnings.map((w) => `warning: ${w}`),
  ];
}
