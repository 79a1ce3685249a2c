// `calibkit conformal <type>`: runs the conformal engine on JSON files so any tool can check it
// (docs/conformal.md, "The JSON command"). Reads files; the engine itself stays pure.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import * as C from "../../conformal/index.js";

export const summary = "Calibrate and predict with the conformal engine on JSON / JSON Lines files";

const HELP = `usage: calibkit conformal <set|interval|belief|gate|claim> --calibration FILE --test FILE [options]

options:
  --method M        set: LAC, APS, RAPS; interval: CQR, ordinal-aps (any case). belief, gate, claim: not used
  --alpha A         miscoverage level in (0, 1) (set, interval, claim; default 0.1)
  --calibration F   labelled records, a JSON array or JSON Lines
  --test F          records to predict (labels ignored)
  --seed S          integer or any string; seeds the random source of randomized methods (default 0)
  --guarantee G     gate: risk, risk_high_probability or fdr
  --target T        gate: the risk or FDR level in (0, 1)
  --delta D         gate risk_high_probability: failure probability in (0, 1)
  --deterministic   set APS/RAPS, interval: the non-randomized variant
  -h, --help        this text

Prints one JSON object: type, method, alpha, n, threshold(s), predictions (one per test record, in order).
Non-finite numbers print as the strings "Infinity" / "-Infinity".
`;

class InputError extends Error {}

type Rec = Record<string, unknown>;
interface Loaded {
  file: string;
  records: Rec[];
  where: (i: number) => string;
}

function load(file: string): Loaded {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new InputError(`${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (text.trimStart().startsWith("[")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      throw new InputError(`${file}: invalid JSON (${(e as Error).message})`);
    }
    const records = parsed as unknown[];
    records.forEach((r, i) => {
      if (!r || typeof r !== "object" || Array.isArray(r)) throw new InputError(`${file}: record ${i + 1}: must be a JSON object`);
    });
    return { file, records: records as Rec[], where: (i) => `record ${i + 1}` };
  }
  const records: Rec[] = [];
  const lines: number[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (!line.trim()) return;
    let r: unknown;
    try {
      r = JSON.parse(line);
    } catch (e) {
      throw new InputError(`${file}: line ${i + 1}: invalid JSON (${(e as Error).message})`);
    }
    if (!r || typeof r !== "object" || Array.isArray(r)) throw new InputError(`${file}: line ${i + 1}: must be a JSON object`);
    records.push(r as Rec);
    lines.push(i + 1);
  });
  return { file, records, where: (i) => `line ${lines[i]}` };
}

function fail(src: Loaded, i: number, field: string, msg: string): never {
  throw new InputError(`${src.file}: ${src.where(i)}: field "${field}": ${msg}`);
}
function num(src: Loaded, i: number, field: string, v: unknown): number {
  if (typeof v !== "number" || !Number.isFinite(v)) fail(src, i, field, `must be a finite number, got ${JSON.stringify(v)}`);
  return v;
}
function probs(src: Loaded, i: number): { names: string[]; p: Float64Array } {
  const m = src.records[i]!.probabilities;
  if (!m || typeof m !== "object" || Array.isArray(m)) fail(src, i, "probabilities", "must be an object mapping names to probabilities");
  const names = Object.keys(m as Rec);
  if (names.length < 1) fail(src, i, "probabilities", "is empty");
  const p = Float64Array.from(names, (k) => {
    const v = num(src, i, `probabilities.${k}`, (m as Rec)[k]);
    if (v < 0) fail(src, i, `probabilities.${k}`, "must be ≥ 0");
    return v;
  });
  return { names, p };
}
function labelIndex(src: Loaded, i: number, names: string[]): number {
  const l = src.records[i]!.label;
  const j = typeof l === "string" ? names.indexOf(l) : -1;
  if (j < 0) fail(src, i, "label", `must be one of ${JSON.stringify(names)}, got ${JSON.stringify(l)}`);
  return j;
}
function groupOf(src: Loaded, i: number, grouped: boolean): string | undefined {
  const g = src.records[i]!.group;
  if (!grouped) return undefined;
  if (typeof g !== "string") fail(src, i, "group", "must be a string when any calibration record has a group");
  return g;
}
const finite = (x: number): number | string => (Number.isFinite(x) ? x : String(x));
const named = (names: string[], v: ArrayLike<number>) => Object.fromEntries(names.map((k, j) => [k, finite(v[j]!)]));

function runSet(cal: Loaded, test: Loaded, o: Opts) {
  const rows = cal.records.map((_, i) => probs(cal, i));
  const grouped = cal.records.some((r) => r.group !== undefined);
  const c = C.calibrateSet(
    { probabilities: rows.map((r) => r.p), labels: rows.map((r, i) => labelIndex(cal, i, r.names)), ...(grouped ? { groups: rows.map((_, i) => groupOf(cal, i, true)!) } : {}) },
    { method: o.method ?? "LAC", alpha: o.alpha, rng: o.rng, randomized: !o.deterministic },
  );
  const sameOptions = rows.length > 0 && rows.every((r) => r.names.join("\u0000") === rows[0]!.names.join("\u0000"));
  const va = sameOptions ? C.calibrateOptionBeliefs({ probabilities: rows.map((r) => r.p), labels: rows.map((r, i) => labelIndex(cal, i, r.names)) }) : undefined;
  const predictions = test.records.map((_, i) => {
    const { names, p } = probs(test, i);
    const s = C.predictSet(c, { probabilities: p, options: names, ...(grouped ? { group: groupOf(test, i, true)! } : {}) }, o.rng);
    const beliefs = va && names.join("\u0000") === rows[0]!.names.join("\u0000") ? C.predictOptionBeliefs(va, p) : undefined;
    return {
      set: s.set,
      p_values: named(names, s.pValues),
      scores: named(names, s.scores),
      ...(beliefs ? { venn_abers: Object.fromEntries(names.map((k, j) => [k, [beliefs[j]!.p0, beliefs[j]!.p1]])) } : {}),
    };
  });
  const thresholds = Object.fromEntries([...c.strata].map(([k, st]) => [k, { n: st.n, k: st.k, threshold: finite(st.threshold) }]));
  return { method: c.method, n: c.n, ...(c.method === "RAPS" ? { lambda: c.lambda, k_reg: c.kReg } : {}), ...(grouped ? { groups: thresholds } : { threshold: thresholds[""]?.threshold ?? "Infinity" }), predictions };
}

function runInterval(cal: Loaded, test: Loaded, o: Opts) {
  if (cal.records[0] && "lower" in cal.records[0]) {
    const f = (k: string) => cal.records.map((r, i) => num(cal, i, k, r[k]));
    const c = C.calibrateNumericInterval({ lower: f("lower"), upper: f("upper"), y: f("y") }, { alpha: o.alpha });
    const predictions = test.records.map((r, i) => {
      const p = C.predictNumericInterval(c, { lower: num(test, i, "lower", r.lower), upper: num(test, i, "upper", r.upper) });
      return { interval: [finite(p.lower), finite(p.upper)] };
    });
    return { method: "CQR", n: c.n, threshold: finite(c.strata.get("")!.threshold), predictions };
  }
  const rows = cal.records.map((_, i) => probs(cal, i));
  const levels = rows[0]?.names ?? [];
  rows.forEach((r, i) => r.names.join("\u0000") !== levels.join("\u0000") && fail(cal, i, "probabilities", `levels must be ${JSON.stringify(levels)} in that order`));
  const c = C.calibrateInterval({ probabilities: rows.map((r) => r.p), labels: rows.map((r, i) => labelIndex(cal, i, r.names)) }, { method: o.method ?? "CQR", alpha: o.alpha, rng: o.rng, randomized: !o.deterministic });
  const predictions = test.records.map((_, i) => {
    const { names, p } = probs(test, i);
    if (names.join("\u0000") !== levels.join("\u0000")) fail(test, i, "probabilities", `levels must be ${JSON.stringify(levels)} in that order`);
    const r = C.predictInterval(c, { probabilities: p, levels: names }, o.rng);
    return { point_estimate: r.point, interval: r.interval, legend: r.legend };
  });
  return { method: c.method, n: c.n, threshold: finite(c.strata.get("")?.threshold ?? Infinity), predictions };
}

function labelBit(src: Loaded, i: number, yes: string[], no: string[]): number {
  const l = src.records[i]!.label;
  if (yes.includes(l as string) || l === 1 || l === true) return 1;
  if (no.includes(l as string) || l === 0 || l === false) return 0;
  return fail(src, i, "label", `must be ${[...yes, ...no].map((x) => JSON.stringify(x)).join(" or ")}, got ${JSON.stringify(l)}`);
}

function runBelief(cal: Loaded, test: Loaded) {
  const c = C.calibrateBelief(cal.records.map((r, i) => num(cal, i, "score", r.score)), cal.records.map((_, i) => labelBit(cal, i, ["1"], ["0"])));
  const predictions = test.records.map((r, i) => {
    const b = C.predictBelief(c, num(test, i, "score", r.score));
    return { probability: b.probability, venn_abers: [b.p0, b.p1] };
  });
  return { method: "venn-abers", n: c.n, predictions };
}

function runGate(cal: Loaded, test: Loaded, o: Opts) {
  if (!o.guarantee) throw new UsageError("gate needs --guarantee (risk, risk_high_probability or fdr)");
  if (o.target === undefined) throw new UsageError("gate needs --target");
  const c = C.calibrateGate(
    { scores: cal.records.map((r, i) => num(cal, i, "score", r.score)), labels: cal.records.map((_, i) => labelBit(cal, i, ["pass"], ["fail"])) },
    { guarantee: o.guarantee as C.GateGuarantee, target: o.target, ...(o.delta !== undefined ? { delta: o.delta } : {}) },
  );
  const scores = test.records.map((r, i) => num(test, i, "score", r.score));
  const decisions = C.decideBatch(c, scores);
  return { method: c.guarantee, target: c.target, ...(c.delta !== undefined ? { delta: c.delta } : {}), n: c.n, threshold: finite(c.threshold), feasible: c.feasible, predictions: decisions.map((d) => ({ decision: d })) };
}

function claimsOf(src: Loaded, i: number, labelled: boolean): { text: string; score: number; correct: boolean }[] {
  const r = src.records[i]!;
  if (!Array.isArray(r.claims)) fail(src, i, "claims", "must be an array of {text, score, correct}");
  const texts = (r.claims as Rec[]).map((c, j) => (typeof c?.text === "string" ? c.text : fail(src, i, `claims[${j}].text`, "must be a string")));
  const needFreq = (r.claims as Rec[]).some((c) => c.score === undefined);
  if (needFreq && !Array.isArray(r.samples)) fail(src, i, "claims", "every claim needs a score, or the record needs samples to score them by agreement");
  const freq = needFreq ? C.agreementFrequencies(texts, r.samples as string[]) : undefined;
  return (r.claims as Rec[]).map((c, j) => {
    if (labelled && typeof c.correct !== "boolean") fail(src, i, `claims[${j}].correct`, "must be true or false");
    return { text: texts[j]!, score: c.score === undefined ? freq![j]! : num(src, i, `claims[${j}].score`, c.score), correct: c.correct === true };
  });
}

function runClaim(cal: Loaded, test: Loaded, o: Opts) {
  const c = C.calibrateClaims(cal.records.map((_, i) => claimsOf(cal, i, true)), { alpha: o.alpha });
  const predictions = test.records.map((_, i) => {
    const f = C.filterClaims(c, claimsOf(test, i, false));
    return { retained_claims: f.retained, dropped_claims: f.dropped };
  });
  return { method: "conformal-factuality", n: c.n, threshold: finite(c.threshold), predictions };
}

class UsageError extends Error {}
interface Opts {
  method?: string;
  alpha: number;
  rng: C.Rng;
  guarantee?: string;
  target?: number;
  delta?: number;
  deterministic: boolean;
}

function numberOption(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const x = Number(v);
  if (v.trim() === "" || !Number.isFinite(x)) throw new UsageError(`--${name} must be a number, not "${v}"`);
  return x;
}

export async function run(argv: string[]): Promise<number> {
  const [type, ...rest] = argv;
  if (!type || type === "--help" || type === "-h") {
    process[type ? "stdout" : "stderr"].write(HELP);
    return type ? 0 : 2;
  }
  try {
    const { values: a } = parseArgs({
      args: rest,
      strict: true,
      options: {
        method: { type: "string" }, alpha: { type: "string" }, calibration: { type: "string" }, test: { type: "string" },
        seed: { type: "string" }, delta: { type: "string" }, target: { type: "string" }, guarantee: { type: "string" },
        deterministic: { type: "boolean" }, help: { type: "boolean", short: "h" },
      },
    });
    if (a.help) {
      process.stdout.write(HELP);
      return 0;
    }
    if (!["set", "interval", "belief", "gate", "claim"].includes(type)) throw new UsageError(`unknown type "${type}"; use set, interval, belief, gate or claim`);
    if (!a.calibration) throw new UsageError("--calibration FILE is required");
    if (!a.test) throw new UsageError("--test FILE is required");
    const seedText = a.seed ?? "0";
    const seed = /^\d+$/.test(seedText) ? Number(BigInt(seedText) & 0xffffffffn) : C.seedFromString(seedText);
    const o: Opts = {
      alpha: numberOption("alpha", a.alpha) ?? 0.1,
      rng: C.mulberry32(seed),
      deterministic: a.deterministic ?? false,
      ...(a.method !== undefined ? { method: a.method } : {}),
      ...(a.guarantee !== undefined ? { guarantee: a.guarantee } : {}),
      ...(a.target !== undefined ? { target: numberOption("target", a.target)! } : {}),
      ...(a.delta !== undefined ? { delta: numberOption("delta", a.delta)! } : {}),
    };
    const cal = load(a.calibration);
    const test = load(a.test);
    const body =
      type === "set" ? runSet(cal, test, o)
      : type === "interval" ? runInterval(cal, test, o)
      : type === "belief" ? runBelief(cal, test)
      : type === "gate" ? runGate(cal, test, o)
      : runClaim(cal, test, o);
    const head = { type, ...(type === "gate" || type === "belief" ? {} : { alpha: o.alpha }), seed: seedText };
    process.stdout.write(JSON.stringify({ ...head, ...body }) + "\n");
    return 0;
  } catch (e) {
    const usage = e instanceof UsageError || (e as { code?: string }).code?.startsWith("ERR_PARSE_ARGS");
    const field = e instanceof C.ConformalError && e.field ? ` (field ${e.field})` : "";
    process.stderr.write(`calibkit conformal: ${(e as Error).message}${field}\n${usage ? "Run `calibkit conformal --help` for the options.\n" : ""}`);
    if (!(e instanceof InputError || e instanceof UsageError || e instanceof C.ConformalError || usage)) throw e;
    return usage ? 2 : 1;
  }
}
