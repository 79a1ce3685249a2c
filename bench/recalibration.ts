// What an examples POST of 1,000 costs the service's engine at 100,000 and 1,000,000 examples, for the query
// types whose calibrations are now extended per batch (interval, gate, claim, judge) — the POST itself with a
// coverage or risk monitor over the batch, the new version applied, then the first query of that version — and,
// in the same run on the same pools, the recalibration the engine did per version before (a full calibration of
// every example; claims also re-scored every example) against the extension it does now.
// Run: npx tsx bench/recalibration.ts [--sizes 100000,1000000] [--posts 5]
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import type { ExampleRecord } from "../src/api/index.js";
import * as C from "../src/conformal/index.js";
import { claimScores } from "../src/service/engine/claimScores.js";
import { evaluate } from "../src/service/engine/evaluate.js";
import { exampleUniforms } from "../src/service/engine/seeds.js";
import { probabilityPool, type ProbabilityPool } from "../src/service/engine/pools.js";
import { prepareExamples } from "../src/service/profiles/ingest.js";
import { ProfileState } from "../src/service/profiles/profileState.js";
import { labelledClaims } from "../src/service/engine/claimCalibration.js";

const { values } = parseArgs({ options: { sizes: { type: "string", default: "100000,1000000" }, posts: { type: "string", default: "5" } } });
const SIZES = values.sizes!.split(",").map(Number);
const POSTS = Number(values.posts);
const BATCH = 1000;
const LEVELS = ["l0", "l1", "l2", "l3", "l4", "l5", "l6"];
const CANDIDATES = ["A", "B", "C"];
const rng = C.mulberry32(12);

function normalised(raw: number[]): number[] {
  const s = raw.reduce((a, b) => a + b, 0);
  return raw.map((x) => x / s);
}

type Kind = "interval" | "gate" | "claim" | "judge";
const MAKE: Record<Kind, (i: number) => ExampleRecord> = {
  interval: (i) => {
    const c = Math.floor(rng() * LEVELS.length);
    const p = normalised(LEVELS.map((_, j) => Math.exp(-Math.abs(j - c) * (0.4 + rng()))));
    const y = Math.min(LEVELS.length - 1, Math.max(0, c + Math.round((rng() - 0.5) * 3)));
    return { context: `i${i}`, label: LEVELS[y]!, metadata: { evidence: { level_probabilities: Object.fromEntries(LEVELS.map((l, j) => [l, p[j]!])) } } } as ExampleRecord;
  },
  gate: (i) => {
    const pass = rng() < 0.7;
    const p = pass ? 0.3 + 0.7 * rng() : 0.8 * rng();
    return { context: `g${i}`, label: pass ? "pass" : "fail", metadata: { evidence: { option_probabilities: { pass: p, fail: 1 - p } } } } as ExampleRecord;
  },
  claim: (i) => {
    const k = i % 50;
    return {
      context: `c${i}`, label: { claims: [{ text: "The sky is blue.", correct: true }, { text: `Fact ${k} holds.`, correct: rng() < 0.8 }] },
      metadata: { evidence: { samples: [{ text: "x", claims: [{ text: "The sky is blue.", score: 0.9 }, { text: `Fact ${k} holds.`, score: Math.round(rng() * 100) / 100 }] }] } },
    } as ExampleRecord;
  },
  judge: (i) => {
    const y = Math.floor(rng() * 3);
    const p = normalised(CANDIDATES.map((_, j) => (j === y ? 2 : 0) + rng()));
    return {
      context: { candidates: { A: "a", B: "b", C: "c" } }, label: CANDIDATES[rng() < 0.75 ? y : Math.floor(rng() * 3)]!,
      metadata: { evidence: { option_probabilities: Object.fromEntries(CANDIDATES.map((c, j) => [c, p[j]!])) } },
    } as ExampleRecord;
  },
};

const QUERY: Record<Kind, Record<string, unknown>> = {
  interval: { type: "interval", instructions: "How much?", levels: LEVELS, calibration_profile: "b", evidence: { level_probabilities: Object.fromEntries(LEVELS.map((l, j) => [l, [0.05, 0.1, 0.2, 0.3, 0.2, 0.1, 0.05][j]])) } },
  gate: { type: "gate", instructions: "OK?", calibration_profile: "b", guarantee: "risk", target: 0.1, evidence: { option_probabilities: { pass: 0.8, fail: 0.2 } } },
  claim: { type: "claim", instructions: "Facts", calibration_profile: "b", evidence: { claim_scoring: "client", samples: [{ text: "x", claims: [{ text: "The sky is blue.", score: 0.9 }, { text: "Fact 3 holds.", score: 0.5 }] }] } },
  judge: { type: "judge", instructions: "Which is better?", calibration_profile: "b", evidence: { option_probabilities: { A: 0.5, B: 0.3, C: 0.2 } } },
};

function profile(kind: Kind, n: number): ProfileState {
  const state = new ProfileState({ name: "b", backend: { provider: "client_evidence" } as never, method: kind === "interval" ? "ordinal-aps" : "APS", alpha: 0.1, strict_fingerprint: false, created_at: "2026-01-01T00:00:00.000Z" });
  const type = kind === "gate" ? "risk" : "coverage";
  state.monitors.set("m", {
    definition: { id: "m", type, target: 0.1, false_alarm_rate: 0.01, labelled_sample_rate: 1, use_judge_pseudo_labels: false, created_at: "2026-01-01T00:00:00.000Z", start_n: 0 },
    state: { eprocess: C.createMonitor(0.1, 0.01), status: "active", alerts: [] },
  });
  for (let at = 0; at < n; at += 10_000) {
    state.apply({ t: "examples", at: "2026-01-01T00:00:00.000Z", examples: Array.from({ length: Math.min(10_000, n - at) }, (_, i) => MAKE[kind](at + i)) });
  }
  return state;
}

async function ask(state: ProfileState, kind: Kind): Promise<void> {
  const request = { context: kind === "judge" ? { candidates: { A: "a", B: "b", C: "c" } } : "q", backend: { provider: "client_evidence", name: "m", access_level: "L2" }, queries: { q: QUERY[kind] } };
  const res = await evaluate(request as never, { profiles: { get: () => state }, backends: {}, humanQueue: {} } as never, "bench");
  if (res.status !== 200) throw new Error(`${kind}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
}

/** The recalibration the engine did per version before (a full calibration of every example), on the state's pool. */
function oldRecalibration(kind: Kind, state: ProfileState): void {
  const versionRng = C.rngFromString(`b@${state.version}`);
  if (kind === "interval") {
    const pool = probabilityPool(state, LEVELS, { levels: true, grouped: false });
    C.calibrateInterval({ probabilities: { data: pool.rows, width: LEVELS.length }, labels: pool.labels }, { method: "ordinal-aps", alpha: 0.1, rng: versionRng });
  } else if (kind === "gate") {
    const pool = probabilityPool(state, ["fail", "pass"], { grouped: false, booleanNames: ["pass", "fail"] });
    const scores = Float64Array.from({ length: pool.n }, (_, i) => pool.rows[2 * i + 1]!);
    const labels = Uint8Array.from(pool.labels.subarray(0, pool.n), (l) => (l === 1 ? 1 : 0));
    C.calibrateGate({ scores, labels, losses: Float64Array.from(labels, (l) => (l ? 0 : 1)) }, { guarantee: "risk", target: 0.1, lossBound: 1 });
  } else if (kind === "claim") {
    const examples: C.LabelledClaim[][] = [];
    for (const example of state.examplesIn(0, state.n)) {
      const labelled = labelledClaims(example.label)!;
      const { scores } = claimScores(example.metadata!.evidence as never, labelled.map((c) => c.text));
      examples.push(labelled.map((c, i) => ({ score: scores[i]!, correct: c.correct })));
    }
    C.calibrateClaims(examples, { alpha: 0.1 });
  } else {
    const pool = probabilityPool(state, CANDIDATES, { grouped: false });
    C.calibrateSet({ probabilities: { data: pool.rows, width: 3 }, labels: pool.labels }, { method: "APS", alpha: 0.1, rng: versionRng });
  }
}

/** The extension the engine does now for the batch's rows (the same work calibrations.ts hands the conformal engine). */
function newExtension(kind: Kind, state: ProfileState, last: unknown, from: number): unknown {
  if (kind === "interval") {
    const pool = probabilityPool(state, LEVELS, { levels: true, grouped: false });
    const L = LEVELS.length;
    return C.extendInterval(last as C.CalibratedOrdinal, {
      probabilities: pool.rows.subarray(from * L, pool.n * L), width: L, labels: pool.labels.subarray(from, pool.n), uniforms: exampleUniforms(state, pool.positions.subarray(from, pool.n)),
    });
  }
  if (kind === "gate") {
    const pool = probabilityPool(state, ["fail", "pass"], { grouped: false, booleanNames: ["pass", "fail"] });
    const scores = Float64Array.from({ length: pool.n - from }, (_, i) => pool.rows[2 * (from + i) + 1]!);
    const labels = Uint8Array.from(pool.labels.subarray(from, pool.n), (l) => (l === 1 ? 1 : 0));
    const data = C.extendGateScores(last as C.GateScores, { scores, labels });
    C.calibrateGateSorted(data, { fail: 1, pass: 0 }, { guarantee: "risk", target: 0.1, lossBound: 1 });
    return data;
  }
  if (kind === "claim") {
    const added: C.LabelledClaim[][] = [];
    for (let i = from; i < state.n; i++) {
      const example = state.exampleAt(i);
      const labelled = labelledClaims(example.label)!;
      const { scores } = claimScores(example.metadata!.evidence as never, labelled.map((c) => c.text));
      added.push(labelled.map((c, j) => ({ score: scores[j]!, correct: c.correct })));
    }
    return C.extendClaims(last as C.CalibratedClaims, added);
  }
  const pool: ProbabilityPool = probabilityPool(state, CANDIDATES, { grouped: false });
  return C.extendSet(last as C.CalibratedSet, {
    probabilities: pool.rows.subarray(from * 3, pool.n * 3), width: 3, labels: pool.labels.subarray(from, pool.n), uniforms: exampleUniforms(state, pool.positions.subarray(from, pool.n)),
  });
}

function firstCalibration(kind: Kind, state: ProfileState): unknown {
  if (kind === "interval") {
    const pool = probabilityPool(state, LEVELS, { levels: true, grouped: false });
    const u = exampleUniforms(state, pool.positions);
    let t = 0;
    return C.calibrateInterval({ probabilities: { data: pool.rows, width: LEVELS.length }, labels: pool.labels }, { method: "ordinal-aps", alpha: 0.1, rng: () => u[t++]! });
  }
  if (kind === "gate") {
    const pool = probabilityPool(state, ["fail", "pass"], { grouped: false, booleanNames: ["pass", "fail"] });
    return C.extendGateScores(C.NO_GATE_SCORES, { scores: Float64Array.from({ length: pool.n }, (_, i) => pool.rows[2 * i + 1]!), labels: Uint8Array.from(pool.labels, (l) => (l === 1 ? 1 : 0)) });
  }
  if (kind === "claim") return newExtension(kind, state, C.calibrateClaims([], { alpha: 0.1 }), 0);
  const pool = probabilityPool(state, CANDIDATES, { grouped: false });
  const u = exampleUniforms(state, pool.positions);
  let t = 0;
  return C.calibrateSet({ probabilities: { data: pool.rows, width: 3 }, labels: pool.labels }, { method: "APS", alpha: 0.1, rng: () => u[t++]! });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));

const rows: string[] = [];
for (const n of SIZES) {
  for (const kind of ["interval", "gate", "claim", "judge"] as Kind[]) {
    const state = profile(kind, n);
    await ask(state, kind); // the first query after a start builds the calibration whole (not timed)
    let last = firstCalibration(kind, state);
    const post: number[] = [];
    const oldCal: number[] = [];
    const newCal: number[] = [];
    let oldSpent = 0;
    for (let p = 0; p <= POSTS; p++) {
      const batch = Array.from({ length: BATCH }, (_, i) => MAKE[kind](state.n + i));
      const from = state.n;
      const t0 = performance.now();
      const { record } = prepareExamples(state, batch, undefined); // the monitor covers the batch against the last version
      state.apply(record);
      await ask(state, kind); // the new version's first query: the calibration is extended here
      const posted = performance.now() - t0;
      // The old path at most ~30 s in all (a million claims re-scored takes minutes on a loaded machine).
      let old: number | undefined;
      if (p === 0 || oldSpent < 30_000) {
        const t1 = performance.now();
        oldRecalibration(kind, state);
        old = performance.now() - t1;
        oldSpent += old;
      }
      const fromRows = kind === "claim" ? from : rowsBefore(kind, state, from);
      const t2 = performance.now();
      last = newExtension(kind, state, last, fromRows);
      const extension = performance.now() - t2;
      if (p === 0) continue; // warm-up: compiles the code paths
      post.push(posted);
      newCal.push(extension);
      if (old !== undefined) oldCal.push(old);
    }
    if (oldCal.length === 0) oldCal.push(oldSpent);
    const o = median(oldCal);
    const c = median(newCal);
    const p = median(post);
    rows.push(`| ${n.toLocaleString("en")} | ${kind} | ${ms(p)} | ${ms(c)} | ${ms(o)} | ${(o / c).toFixed(0)}× | ${ms(p - c + o)} |`);
    process.stderr.write(`${rows.at(-1)}\n`);
  }
}

/** Pool rows covering the examples before stored position `from`. */
function rowsBefore(kind: Kind, state: ProfileState, from: number): number {
  const pool = kind === "interval" ? probabilityPool(state, LEVELS, { levels: true, grouped: false })
    : kind === "gate" ? probabilityPool(state, ["fail", "pass"], { grouped: false, booleanNames: ["pass", "fail"] })
    : probabilityPool(state, CANDIDATES, { grouped: false });
  let r = pool.n;
  while (r > 0 && pool.positions[r - 1]! >= from) r--;
  return r;
}

const lines = [
  "## Recalibration per examples POST (`bench/recalibration.ts`)",
  "",
  `Command: \`npx tsx bench/recalibration.ts --sizes ${SIZES.join(",")} --posts ${POSTS}\`. One profile per query type, n examples, then ${POSTS} POSTs of ${BATCH.toLocaleString("en")} examples`,
  "each through the service's engine (in process, no HTTP or store): `prepareExamples` with a coverage monitor (a risk monitor for",
  "gates) over the batch, the record applied, then one query of the type (its calibration extended there). Beside it, on the same pools",
  "in the same run: the extension the engine now does for the batch, and the recalibration it did per version before (a full",
  "calibration of every example, with the version's rng; claims also re-scored every example). Medians over the POSTs after a first",
  "one that warms the code up, in ms (the old path is repeated while it has spent under 30 s).",
  "",
  "| n | type | POST + first query, now | extension, now | full recalibration, before | ratio | POST + first query with the old recalibration (derived) |",
  "|---:|---|---:|---:|---:|---:|---:|",
  ...rows,
  "",
  `Machine load average at the end of the run: ${os.loadavg().map((x) => x.toFixed(1)).join(" / ")} (1/5/15 min; other work shares the cores, so the ratios in the same run are the comparable figures).`,
  "",
];
const out = process.env.CALIBKIT_BENCH_RESULTS ?? new URL("./results/", import.meta.url).pathname;
mkdirSync(out, { recursive: true });
writeFileSync(join(out, "recalibration.md"), lines.join("\n"));
console.log(lines.join("\n"));
