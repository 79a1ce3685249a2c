// `calibkit conformal set`: records → columns → the batch set API (the per-row API when records name
// different options), per-option Venn–Abers only with --beliefs.
import * as C from "../../conformal/setApi.js";
import { Groups, ProbabilityColumns, scannedInto } from "./columns.js";
import { JsonOut, finite, num } from "./output.js";
import { readRecords } from "./records.js";
import { writeSetRows } from "./setRows.js";
import type { ConformalOptions } from "./options.js";

export function runSet(o: ConformalOptions): void {
  const groups = new Groups();
  const cal = new ProbabilityColumns();
  readRecords(o.calibration, (r, i, src) => {
    cal.add(src, i, r, true, false);
    groups.add(src, i, r, true);
  }, scannedInto(cal, groups, true, true));
  const calGroups = groups.take(0);
  const nCal = groups.count;
  const test = new ProbabilityColumns(cal.names);
  const testNames: (readonly string[])[] = [];
  const fastTest = scannedInto(test, groups, false, false);
  readRecords(o.test, (r, i, src) => {
    const own = test.add(src, i, r, false, false);
    if (test.ragged) testNames.push(own);
    groups.add(src, i, r, false);
  }, (bytes, start, end, i, src) => {
    if (!fastTest(bytes, start, end, i, src)) return false;
    if (test.ragged) testNames.push(test.names!);
    return true;
  });
  const testGroups = groups.take(nCal);
  const options: C.SetOptions = {
    method: o.method ?? "LAC", alpha: o.alpha, rng: o.rng, classConditional: o.classConditional,
    ...(o.randomized !== undefined ? { randomized: o.randomized } : {}),
    ...(o.lambda !== undefined ? { lambda: o.lambda } : {}),
    ...(o.kReg !== undefined ? { kReg: o.kReg } : {}),
    ...(o.tuningFraction !== undefined ? { tuningFraction: o.tuningFraction } : {}),
  };
  const names = cal.names ?? [];
  const K = names.length;
  const uniform = !cal.ragged && !test.ragged && (test.count === 0 || test.names === cal.names || sameList(test.names!, names));
  const c = uniform
    ? C.calibrateSetBatch({ probabilities: cal.data.subarray(0, cal.size), width: Math.max(K, 1), labels: cal.labels.subarray(0, cal.count), ...(calGroups ? { groups: calGroups } : {}) }, options)
    : C.calibrateSet({ probabilities: rowsOf(cal), labels: cal.labels.subarray(0, cal.count), ...(calGroups ? { groups: Array.from(calGroups.codes, (x) => calGroups.names[x]!) } : {}) }, options);
  const out = new JsonOut({ type: "set", alpha: o.alpha, seed: o.seedPrinted, method: c.method, n: c.n, ...(c.method === "RAPS" ? { lambda: c.lambda, k_reg: c.kReg } : {}), ...thresholds(c, names) });
  if (uniform) {
    const batch = { probabilities: test.data.subarray(0, test.size), width: Math.max(K, 1), ...(testGroups ? { groups: testGroups } : {}) };
    const pred = C.predictSetBatch(c, batch, { rng: o.rng, scores: o.scores, pValues: true });
    const va = o.beliefs && cal.count > 0 ? C.predictOptionBeliefsBatch(C.calibrateOptionBeliefs({ probabilities: { data: cal.data.subarray(0, cal.size), width: K }, labels: cal.labels.subarray(0, cal.count) }), batch) : undefined;
    writeSetRows(out, names, { count: test.count, membership: pred.membership, pValues: pred.pValues!, n: pred.n, scores: pred.scores, beliefs: va });
  } else {
    // Records name different options: the per-row API, each record with its own names.
    const rows = rowsOf(test);
    const beliefs = o.beliefs && !cal.ragged && cal.count > 0 ? C.calibrateOptionBeliefs({ probabilities: { data: cal.data.subarray(0, cal.size), width: K }, labels: cal.labels.subarray(0, cal.count) }) : undefined;
    rows.forEach((row, i) => {
      const own = test.ragged ? testNames[i]! : names;
      const group = testGroups ? testGroups.names[testGroups.codes[i]!] : undefined;
      const r = C.predictSet(c, { probabilities: row, options: own as string[], ...(group !== undefined ? { group } : {}) }, o.rng);
      const va = beliefs && sameList(own, names) ? C.predictOptionBeliefs(beliefs, row) : undefined;
      out.add(JSON.stringify({
        set: r.set,
        p_values: Object.fromEntries(own.map((k, j) => [k, finite(r.pValues[j]!)])),
        ...(o.scores ? { scores: Object.fromEntries(own.map((k, j) => [k, finite(r.scores[j]!)])) } : {}),
        ...(va ? { venn_abers: Object.fromEntries(own.map((k, j) => [k, [va[j]!.p0, va[j]!.p1]])) } : {}),
      }));
    });
  }
  out.end();
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, j) => x === b[j]);
}

function rowsOf(cols: ProbabilityColumns): Float64Array[] {
  return Array.from({ length: cols.count }, (_, i) => cols.data.subarray(cols.starts[i]!, cols.starts[i + 1]!));
}

/** threshold (marginal), thresholds per class, or groups: {g: {n, k, threshold}} (per class inside when class-conditional). */
function thresholds(c: C.CalibratedSet, names: readonly string[]): Record<string, unknown> {
  const entry = (st: C.Stratum) => ({ n: st.n, k: st.k, threshold: finite(st.threshold) });
  if (!c.classConditional) {
    const all = Object.fromEntries([...c.strata].map(([k, st]) => [k, entry(st)]));
    return c.grouped ? { groups: all } : { threshold: all[""]?.threshold ?? "Infinity" };
  }
  const perClass = (group: string) => {
    const out: Record<string, unknown> = {};
    for (const [k, st] of c.strata) {
      const [g, j] = k.split("\u001f") as [string, string];
      if (g === group) out[names[Number(j)] ?? j] = entry(st);
    }
    return out;
  };
  if (!c.grouped) return { class_conditional: true, thresholds: perClass("") };
  const groups = [...new Set([...c.strata.keys()].map((k) => k.split("\u001f")[0]!))];
  return { class_conditional: true, groups: Object.fromEntries(groups.map((g) => [g, perClass(g)])) };
}
