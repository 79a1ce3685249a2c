// Whether the profile's current calibration covers one labelled example: the question behind audits and
// coverage monitors. Set-like examples (option_probabilities, label an option) are covered when the label is
// in the conformal set at `alpha`; interval-like ones when the level is in the interval; claim examples when
// every retained claim is correct; gate examples (risk monitors) incur a loss when approved but labelled fail.
import type { ExampleRecord } from "../../api/index.js";
import type { ProfileState } from "../profiles/profileState.js";
import { intervalCalibration, intervalMethodOf, setMethodOf } from "./calibrations.js";
import { claimCalibration, claimExamples, labelledClaims } from "./claimCalibration.js";
import { gateCalibration, gatePool } from "./gateCalibration.js";
import { claimScores } from "./claimScores.js";
import { decide, filterClaims, predictInterval, predictSet, rngFromString } from "./conformal.js";
import { exampleEvidence, labelName, probabilitiesOf } from "./evidence.js";
import { minimumNOf } from "./pools.js";
import { setPool, setPoolCalibration } from "./setPools.js";
import { calibrationSeedText } from "./seeds.js";

/** true: covered; false: missed; undefined: the example cannot be judged (no matching calibration). */
export function coveredBy(profile: ProfileState, example: ExampleRecord, alpha: number, seed: string): boolean | undefined {
  const evidence = exampleEvidence(example);
  if (!evidence) return undefined;
  const rng = rngFromString(`${calibrationSeedText(profile)}/${seed}`);
  const claims = labelledClaims(example.label);
  if (claims && evidence.samples) {
    if (claimExamples(profile).n < minimumNOf(alpha)) return undefined;
    const { scores } = claimScores(evidence, claims.map((c) => c.text));
    const kept = filterClaims(claimCalibration(profile, alpha), claims.map((c, i) => ({ text: c.text, score: scores[i]! })));
    const wrong = new Set(claims.filter((c) => !c.correct).map((c) => c.text));
    return kept.retained.every((c) => !wrong.has(c.text));
  }
  const name = labelName(example.label);
  if (name === undefined) return undefined;
  if (evidence.level_probabilities) {
    const levels = Object.keys(evidence.level_probabilities);
    const y = levels.indexOf(name);
    const p = probabilitiesOf(evidence, levels, true);
    const { pool, cal } = intervalCalibration(profile, levels, intervalMethodOf(profile), alpha);
    if (y < 0 || !p || pool.n < minimumNOf(alpha)) return undefined;
    const pred = predictInterval(cal, { probabilities: p, levels }, rng);
    return !pred.empty && pred.lower <= y && y <= pred.upper;
  }
  const names = Object.keys(evidence.option_probabilities ?? {}).sort();
  if (names.length < 2 || !names.includes(name)) return undefined;
  const p = probabilitiesOf(evidence, names);
  const group = profile.meta.group_by !== undefined ? profile.groupOf(example) : undefined;
  const pool = setPool(profile, names, group !== undefined);
  if (!p || pool.n < minimumNOf(alpha)) return undefined;
  const cal = setPoolCalibration(profile, pool, setMethodOf(profile), alpha, true);
  const pred = predictSet(cal, { probabilities: p, options: names, ...(group !== undefined ? { group } : {}) }, rng, { pValues: false });
  if (pred.n < minimumNOf(alpha)) return undefined;
  return pred.set.includes(name);
}

/** Loss of a gate example under a CRC gate at `target`: approved but labelled fail. undefined: not a gate example. */
export function gateLoss(profile: ProfileState, example: ExampleRecord, target: number): boolean | undefined {
  const name = labelName(example.label, ["pass", "fail"]);
  if (name !== "pass" && name !== "fail") return undefined;
  const p = probabilitiesOf(exampleEvidence(example), ["fail", "pass"]);
  if (!p || gatePool(profile).n < Math.max(1, Math.ceil(1 / target) - 1)) return undefined;
  const { cal } = gateCalibration(profile, { guarantee: "risk", target, fail: 1, pass: 0 });
  return decide(cal, p[1]!) === "auto_approve" && name === "fail";
}
