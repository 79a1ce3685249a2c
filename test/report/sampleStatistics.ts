// The statistics section of a sample summary, computed by the real functions on a synthetic
// overconfident 4-option model: service sets from the local engine (LAC), Venn–Abers pairs from it too.
import { runStatistics } from "../../src/run/index.js";
import { calibrateOptionBeliefs, calibrateSet, mulberry32, predictOptionBeliefs, predictSet } from "../../src/conformal/index.js";
import type { RunStatistics, RunSummary } from "../../src/report/index.js";

const NAMES = ["A", "B", "C", "D"];
const GROUPS = ["copying", "phrases", "binding"];

export function sampleStatistics(audit: RunSummary["audit"], seed = 11): RunStatistics {
  const rng = mulberry32(seed);
  const draw = () => {
    const raw = NAMES.map(() => rng() ** 2);
    const s = raw.reduce((a, b) => a + b, 0);
    const truth = raw.map((x) => x / s);
    let u = rng();
    let label = 0;
    while (label < 3 && u > truth[label]!) u -= truth[label++]!;
    const sharp = truth.map((q) => q ** 3); // the model reports a sharpened distribution: overconfident
    const t = sharp.reduce((a, b) => a + b, 0);
    return { probabilities: sharp.map((q) => q / t), label, group: GROUPS[Math.floor(rng() * GROUPS.length)]! };
  };
  const calibration = Array.from({ length: 1000 }, draw);
  const items = Array.from({ length: 500 }, draw);
  const examples = { probabilities: calibration.map((c) => Float64Array.from(c.probabilities)), labels: calibration.map((c) => c.label) };
  const cal = calibrateSet(examples, { method: "LAC", alpha: 0.1 });
  const beliefs = calibrateOptionBeliefs(examples);
  const pairs = items.flatMap((x) => predictOptionBeliefs(beliefs, x.probabilities).map((b, j) => ({ p0: b.p0, p1: b.p1, gold: j === x.label })));
  const test = items.map((x) => {
    const set = predictSet(cal, { probabilities: x.probabilities }).indices;
    return { ...x, names: NAMES, size: set.length, covered: set.includes(x.label) };
  });
  return runStatistics({
    type: "set", method: "LAC", alpha: 0.1, seed: "sample", calibration, test, pairs, audit,
    profile: { n: 1000, minimumN: 9, recommendedN: 860 },
  });
}
