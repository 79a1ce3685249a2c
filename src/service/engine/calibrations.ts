// The calibrated objects of a profile version, built once from its examples and shared by evaluate, audits
// and monitors (one cache entry per method, alpha, names and group mode), plus the method defaults:
// a query's method, else the profile's when it is of the query's kind, else LAC / ordinal-aps.
import { INTERVAL_METHODS, SET_METHODS } from "../../api/index.js";
import type { ProfileState } from "../profiles/profileState.js";
import {
  calibrateBeliefSteps, calibrateInterval, calibrateOptionBeliefsSteps, calibrateSet, calibrateSetSteps, extendInterval, extendSet, rngFromString,
  type CalibratedBelief, type CalibratedOptionBeliefs, type CalibratedOrdinal, type CalibratedSet,
} from "./conformal.js";
import { extended } from "./extended.js";
import { cached, probabilityPool, type ProbabilityPool } from "./pools.js";
import { rebuilt, VENN_ABERS_WINDOW, type Source } from "./rebuilds.js";
import { exampleUniforms } from "./seeds.js";

export function setMethodOf(profile: ProfileState, override?: string): string {
  return override ?? ((SET_METHODS as readonly string[]).includes(profile.meta.method) ? profile.meta.method : "LAC");
}

export function intervalMethodOf(profile: ProfileState, override?: string): string {
  return override ?? ((INTERVAL_METHODS as readonly string[]).includes(profile.meta.method) ? profile.meta.method : "ordinal-aps");
}

const key = (names: readonly string[]) => names.join("\u0000");

/**
 * Conformal set over `names` (sorted), Mondrian when `pool` was built grouped. LAC and APS extend the last
 * version's calibration with the rows added since (a merge, exactly what a full calibration gives: each
 * example's u is fixed by its position); RAPS, whose tuning split moves with n, is rebuilt (rebuilds.ts).
 * `scope` keeps apart calibrations of different pools over the same names (judge stages). `exact` (audits and
 * monitors): RAPS on the version's own prefix, never an earlier one still answering while it is being built.
 */
export function setCalibration(profile: ProfileState, pool: ProbabilityPool, method: string, alpha: number, scope = "", exact = false): CalibratedSet {
  const rebuiltKey = `set|${method}|${alpha}|${pool.groups !== undefined}|${key(pool.names)}${scope ? `|${scope}` : ""}`;
  const upper = method.toUpperCase();
  const cacheKey = exact && upper === "RAPS" ? `${rebuiltKey}|exact` : rebuiltKey;
  return cached(profile, cacheKey, () => {
    const K = pool.names.length;
    const sliced = (m: number) => ({
      probabilities: { data: pool.rows.subarray(0, m * K), width: K }, labels: pool.labels.subarray(0, m), ...(pool.groups ? { groups: pool.groups.slice(0, m) } : {}),
    });
    if (upper === "RAPS") {
      // In steps (a million rows: a few hundred ms in all), a slice at a time in the background.
      const raps = (p: ProbabilityPool) => function* (m: number) {
        yield;
        return yield* calibrateSetSteps({
          probabilities: { data: p.rows.subarray(0, m * K), width: K }, labels: p.labels.subarray(0, m), ...(p.groups ? { groups: p.groups.slice(0, m) } : {}),
        }, { method, alpha, rng: rngFromString(`${profile.name}#raps@${m}`) });
      };
      return rebuilt(profile, rebuiltKey, pool.n, raps(pool), again(pool, raps), exact).value;
    }
    const randomized = upper !== "LAC";
    return extended(
      profile, cacheKey, pool.n,
      () => {
        const u = randomized ? exampleUniforms(profile, pool.positions) : undefined;
        let t = 0;
        return calibrateSet(sliced(pool.n), { method, alpha, ...(u ? { rng: () => u[t++]! } : {}) });
      },
      (last, from) => extendSet(last, {
        probabilities: pool.rows.subarray(from * K, pool.n * K), width: K, labels: pool.labels.subarray(from, pool.n),
        ...(pool.groups ? { groups: pool.groups.slice(from, pool.n) } : {}),
        ...(randomized ? { uniforms: exampleUniforms(profile, pool.positions.subarray(from, pool.n)) } : {}),
      }),
    );
  });
}

/** How a rebuilt calibration finds its pool at a later version (rebuilds.ts `startRebuilds`). */
export function again<T>(pool: ProbabilityPool, build: (p: ProbabilityPool) => (m: number) => Generator<void, T>): (() => Source<T>) | undefined {
  const current = pool.current;
  if (!current) return undefined;
  return () => {
    const p = current();
    return { n: p.n, start: build(p) };
  };
}

/**
 * One-vs-rest Venn–Abers per option (the set answer's `venn_abers`): on the last VENN_ABERS_WINDOW rows of the
 * pool's rebuild prefix (the whole pool while it is small), built in the background (rebuilds.ts).
 */
export function optionBeliefs(profile: ProfileState, pool: ProbabilityPool): CalibratedOptionBeliefs {
  const cacheKey = `option-beliefs|${key(pool.names)}`;
  return cached(profile, cacheKey, () => {
    const K = pool.names.length;
    const fit = (p: ProbabilityPool) => (m: number) => {
      const from = Math.max(0, m - VENN_ABERS_WINDOW);
      return calibrateOptionBeliefsSteps({ probabilities: { data: p.rows.subarray(from * K, m * K), width: K }, labels: p.labels.subarray(from, m) });
    };
    return rebuilt(profile, cacheKey, pool.n, fit(pool), again(pool, fit)).value;
  });
}

/** The yes / no pool of belief queries: rows are [p(no), p(yes)], label 1 = yes. */
export const beliefPool = (profile: ProfileState): ProbabilityPool =>
  probabilityPool(profile, ["no", "yes"], { grouped: false, booleanNames: ["yes", "no"] });

/** Venn–Abers on p(yes) (belief answers) over the rows it used: rebuilt like optionBeliefs. */
export function beliefCalibration(profile: ProfileState): { cal: CalibratedBelief; rows: number } {
  const pool = beliefPool(profile);
  return cached(profile, "belief", () => {
    const window = (m: number) => Math.min(m, VENN_ABERS_WINDOW);
    const fit = (p: ProbabilityPool) => (m: number) => {
      const from = m - window(m);
      const scores = new Float64Array(m - from);
      const labels = new Uint8Array(m - from);
      for (let i = from; i < m; i++) {
        scores[i - from] = p.rows[2 * i + 1]!;
        labels[i - from] = p.labels[i] === 1 ? 1 : 0;
      }
      return calibrateBeliefSteps(scores, labels);
    };
    const { value: cal, prefix } = rebuilt(profile, "belief", pool.n, fit(pool), again(pool, fit));
    return { cal, rows: window(prefix) };
  });
}

/**
 * Ordinal interval over `levels` in their order, extended version by version: each example's u is fixed by its
 * stored position (as for sets), so the extension equals a full calibration (conformal/intervals/extendInterval.ts).
 */
export function intervalCalibration(profile: ProfileState, levels: readonly string[], method: string, alpha: number): { pool: ProbabilityPool; cal: CalibratedOrdinal } {
  const pool = probabilityPool(profile, levels, { levels: true, grouped: false });
  const cacheKey = `interval|${method}|${alpha}|${key(levels)}`;
  const L = levels.length;
  const cal = cached(profile, cacheKey, () =>
    extended(
      profile, cacheKey, pool.n,
      () => {
        const u = exampleUniforms(profile, pool.positions);
        let t = 0;
        return calibrateInterval({ probabilities: { data: pool.rows, width: L }, labels: pool.labels }, { method, alpha, rng: () => u[t++]! });
      },
      (last, from) => extendInterval(last, {
        probabilities: pool.rows.subarray(from * L, pool.n * L), width: L, labels: pool.labels.subarray(from, pool.n),
        uniforms: exampleUniforms(profile, pool.positions.subarray(from, pool.n)),
      }),
    ));
  return { pool, cal };
}
