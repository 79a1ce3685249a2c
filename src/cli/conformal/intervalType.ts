// `calibkit conformal interval`: ordinal levels (CQR or ordinal APS over level probabilities) or numeric CQR
// ({lower, upper, y}), Mondrian when the records have a `group`. The scale is --levels, or the first calibration
// record's levels in the order the file writes them (JSON.parse would put integer-like names first).
import * as C from "../../conformal/index.js";
import { Groups, ProbabilityColumns, fail, finiteNumber, scannedInto } from "./columns.js";
import { JsonOut, finite, num } from "./output.js";
import { firstRecordKeys, readRecords, InputError, type FastRecord, type Rec } from "./records.js";
import type { ConformalOptions } from "./options.js";

export function runInterval(o: ConformalOptions): void {
  const groups = new Groups();
  let numeric: boolean | undefined;
  let levels = o.levels;
  let cal: ProbabilityColumns | undefined;
  let fastCal: FastRecord | undefined;
  const lower: number[] = [];
  const upper: number[] = [];
  const y: number[] = [];
  readRecords(o.calibration, (r, i, src) => {
    numeric ??= "lower" in r || "upper" in r;
    if (numeric) {
      lower.push(finiteNumber(src, i, "lower", r.lower));
      upper.push(finiteNumber(src, i, "upper", r.upper));
      y.push(finiteNumber(src, i, "y", r.y));
    } else {
      if (!cal) {
        levels ??= firstRecordKeys(src.firstText ?? "", "probabilities") ?? Object.keys((r.probabilities ?? {}) as Rec);
        cal = new ProbabilityColumns(levels);
      }
      cal.add(src, i, r, true, true);
    }
    groups.add(src, i, r, true);
  }, (bytes, start, end, i, src) => {
    if (numeric || !cal) return false;
    fastCal ??= scannedInto(cal, groups, true, true);
    return fastCal(bytes, start, end, i, src);
  });
  const calGroups = groups.take(0);
  const nCal = groups.count;
  if (numeric) return runNumeric(o, { lower, upper, y }, calGroups, groups, nCal);
  levels ??= [];
  const L = levels.length;
  const test = new ProbabilityColumns(levels);
  readRecords(o.test, (r, i, src) => {
    if (L === 0) throw new InputError(`${o.calibration}: no calibration records, so no levels: give --levels`);
    test.add(src, i, r, false, true);
    groups.add(src, i, r, false);
  }, L > 0 ? scannedInto(test, groups, false, false) : undefined);
  const testGroups = groups.take(nCal);
  const options = { method: o.method ?? "CQR", alpha: o.alpha, rng: o.rng, ...(o.randomized !== undefined ? { randomized: o.randomized } : {}) };
  const width = Math.max(L, 1);
  const columns = cal ?? new ProbabilityColumns(levels);
  const c = C.calibrateIntervalBatch({ probabilities: columns.data.subarray(0, columns.size), width, labels: columns.labels.subarray(0, columns.count), ...(calGroups ? { groups: calGroups } : {}) }, options);
  const out = new JsonOut({ type: "interval", alpha: o.alpha, seed: o.seedPrinted, method: c.method, n: c.n, ...strataFields(c.strata, c.grouped), legend: levels });
  const pred = C.predictIntervalBatch(c, { probabilities: test.data.subarray(0, test.size), width, ...(testGroups ? { groups: testGroups } : {}) }, { rng: o.rng });
  const quoted = levels.map((x) => JSON.stringify(x));
  const legend = `[${quoted.join(",")}]`;
  for (let i = 0; i < test.count; i++) {
    const lo = pred.lower[i]!;
    const hi = pred.upper[i]!;
    out.add(`{"point_estimate":${quoted[pred.point[i]!]},"interval":${lo > hi ? "null" : `[${quoted[lo]},${quoted[hi]}]`},"legend":${legend}}`);
  }
  out.end();
}

function runNumeric(o: ConformalOptions, cols: { lower: number[]; upper: number[]; y: number[] }, calGroups: C.GroupCodes | undefined, groups: Groups, nCal: number): void {
  const c = C.calibrateNumericIntervalBatch({ lower: cols.lower, upper: cols.upper, y: cols.y, ...(calGroups ? { groups: calGroups } : {}) }, { alpha: o.alpha });
  const lower: number[] = [];
  const upper: number[] = [];
  readRecords(o.test, (r, i, src) => {
    lower.push(finiteNumber(src, i, "lower", r.lower));
    upper.push(finiteNumber(src, i, "upper", r.upper));
    groups.add(src, i, r, false);
  });
  const testGroups = groups.take(nCal);
  const pred = C.predictNumericIntervalBatch(c, { lower: Float64Array.from(lower), upper: Float64Array.from(upper), ...(testGroups ? { groups: testGroups } : {}) });
  const out = new JsonOut({ type: "interval", alpha: o.alpha, seed: o.seedPrinted, method: "CQR", n: c.n, ...strataFields(c.strata, c.grouped) });
  for (let i = 0; i < lower.length; i++) out.add(`{"interval":[${num(pred.lower[i]!)},${num(pred.upper[i]!)}]}`);
  out.end();
}

function strataFields(strata: ReadonlyMap<string, C.Stratum>, grouped: boolean): Record<string, unknown> {
  if (!grouped) return { threshold: finite(strata.get("")?.threshold ?? Infinity) };
  return { groups: Object.fromEntries([...strata].map(([g, st]) => [g, { n: st.n, k: st.k, threshold: finite(st.threshold) }])) };
}
