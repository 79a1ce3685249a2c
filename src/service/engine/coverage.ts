// Whether the profile's current calibration covers one labelled example: the question behind audits and
// coverage monitors. Set-like examples (option_probabilities, label an option) are covered when the label is
// in the conformal set at `alpha`; interval-like ones when the level is in the interval; claim examples when
// every retained claim is correct; gate examples (risk monitors) incur a loss when approved but labelled fail.
import type { ExampleRecord } from "../../api/index.js";
import type { ProfileState } from "../profiles/profileState.js";
import { calibrateClaims, calibrateGate, calibrateInterval, calibrateSet, decide, filterClaims, predictInterval, predictSet, rngFromString } from "./conformal.js";
import { exampleEvidence, labelName, probabilitiesOf } from "./evidence.js";
import { cached, probabilityPool, minimumNOf } from "./pools.js";
import { calibrationRng, calibrationSeedText } from "./seeds.js";
import { claimScores } from "./claimQuery.js";

const SET_METHODS = new Set(["LAC", "APS", "RAPS"]);
const INTERVAL_METHODS = new Set(["CQR", "ordinal-aps"]);

/** true: covered; false: missed; undefined: the example cannot be judged (no matching calibration). */
export function coveredBy(profile: ProfileState, example: ExampleRecord, alpha: number, seed: string): boolean | undefined {
  const evidence = exampleEvidence(example);
  if (!evidence) return undefined;
  const rng = rngFromString(`${calibrationSeedText(profile)}/${seed}`);
  const label = example.label as { claims?: unknown };
  if (label && typeof label === "object" && Array.isArray(label.claims) && evidence.samples) {
    const claims = (label.claims as { text?: unknown; correct?: unknown }[]).filter((c) => typeof c?.text === "string" && typeof c?.correct === "boolean");
    const examples = cached(profile, "claims-all", () => profile.examples.flatMap((e) => {
      const l = e.label as { claims?: unknown };
      const ev = exampleEvidence(e);
      if (!l || typeof l !== "object" || !Array.isArray(l.claims) || !ev?.samples) return [];
      const cs = (l.claims as { text?: unknown; correct?: unknown }[]).filter((c) => typeof c?.text === "string" && typeof c?.correct === "boolean") as { text: string; correct: boolean }[];
      const { scores } = claimScores(ev, cs.map((c) => c.text));
      return [cs.map((c, i) => ({ score: scores[i]!, correct: c.correct }))];
    }));
    if (examples.length < minimumNOf(alpha)) return undefined;
    const cal = cached(profile, `claim-cal|${alpha}`, () => calibrateClaims(examples, { alpha }));
    const { scores } = claimScores(evidence, claims.map((c) => c.text as string));
    const kept = filterClaims(cal, claims.map((c, i) => ({ text: c.text as string, score: scores[i]! })));
    const wrong = new Set(claims.filter((c) => !c.correct).map((c) => c.text as string));
    return kept.retained.every((c) => !wrong.has(c.text));
  }
  const name = labelName(example.label);
  if (name === undefined) return undefined;
  if (evidence.level_probabilities) {
    const levels = Object.keys(evidence.level_probabilities);
    const y = levels.indexOf(name);
    const p = probabilitiesOf(evidence, levels, true);
    const pool = probabilityPool(profile, levels, { levels: true, grouped: false });
    if (y < 0 || !p || pool.n < minimumNOf(alpha)) return undefined;
    const method = INTERVAL_METHODS.has(profile.meta.method) ? profile.meta.method : "ordinal-aps";
    const cal = cached(profile, `interval|${method}|${alpha}|${levels.join("\u0000")}`, () =>
      calibrateInterval({ probabilities: { data: pool.rows, width: levels.length }, labels: pool.labels }, { method, alpha, rng: calibrationRng(profile) }));
    const pred = predictInterval(cal, { probabilities: p, levels }, rng);
    return !pred.empty && pred.lower <= y && y <= pred.upper;
  }
  if (!evidence.option_probabilities && !evidence.samples) return undefined;
  const names = Object.keys(evidence.option_probabilities ?? {}).sort();
  if (names.length < 2 || !names.includes(name)) return undefined;
  const p = probabilitiesOf(evidence, names);
  const grouped = profile.meta.group_by !== undefined && profile.groupOf(example) !== undefined;
  const pool = probabilityPool(profile, names, { grouped });
  if (!p || pool.n < minimumNOf(alpha)) return undefined;
  const method = SET_METHODS.has(profile.meta.method) ? profile.meta.method : "LAC";
  const cal = cached(profile, `set|${method}|${alpha}|${grouped}|${names.join("\u0000")}`, () =>
    calibrateSet({ probabilities: { data: pool.rows, width: names.length }, labels: pool.labels, ...(pool.groups ? { groups: pool.groups } : {}) }, { method, alpha, rng: calibrationRng(profile) }));
  const group = grouped ? profile.groupOf(example) : undefined;
  const pred = predictSet(cal, { probabilities: p, options: names, ...(group !== undefined ? { group } : {}) }, rng, { pValues: false });
  if (pred.n < minimumNOf(alpha)) return undefined;
  return pred.set.includes(name);
}

/** Loss of a gate example under a CRC gate at `target`: approved but labelled fail. undefined: not a gate example. */
export function gateLoss(profile: ProfileState, example: ExampleRecord, target: number): boolean | undefined {
  const name = labelName(example.label, ["pass", "fail"]);
  if (name !== "pass" && name !== "fail") return undefined;
  const p = probabilitiesOf(exampleEvidence(example), ["fail", "pass"]);
  if (!p) return undefined;
  const pool = probabilityPool(profile, ["fail", "pass"], { grouped: false, booleanNames: ["pass", "fail"] });
  if (pool.n < Math.max(1, Math.ceil(1 / target) - 1)) return undefined;
  const cal = cached(profile, `gate|risk|${target}|undefined|1|0`, () => {
    const scores = Float64Array.from({ length: pool.n }, (_, i) => pool.rows[2 * i + 1]!);
    const labels = Uint8Array.from(pool.labels, (y) => (y === 1 ? 1 : 0));
    return calibrateGate({ scores, labels, losses: Float64Array.from(labels, (y) => (y ? 0 : 1)) }, { guarantee: "risk", target, lossBound: 1 });
  });
  return decide(cal, p[1]!) === "auto_approve" && name === "fail";
}
