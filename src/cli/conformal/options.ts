// The `conformal` command's options: parsed strictly, every value checked here, so that a bad option is a
// usage error (exit 2) naming it, before any file is read.
import { parseArgs } from "node:util";
import { parseArgsMessage } from "../args.js";
import * as C from "../../conformal/setApi.js";

export class UsageError extends Error {}

export const TYPES = ["set", "interval", "belief", "gate", "claim"] as const;
export type ConformalType = (typeof TYPES)[number];

export interface ConformalOptions {
  type: ConformalType;
  calibration: string;
  test: string;
  method?: string;
  alpha: number;
  rng: C.Rng;
  /** The seed as given: a number when it is a decimal integer, else the string. */
  seedPrinted: number | string;
  randomized?: boolean;
  classConditional: boolean;
  lambda?: number;
  kReg?: number;
  tuningFraction?: number;
  levels?: string[];
  beliefs: boolean;
  /** set: print each option's nonconformity score (off by default: half the output and a third of the time). */
  scores: boolean;
  guarantee?: string;
  target?: number;
  delta?: number;
}

const SPEC = {
  method: { type: "string" }, alpha: { type: "string" }, calibration: { type: "string" }, test: { type: "string" },
  seed: { type: "string" }, delta: { type: "string" }, target: { type: "string" }, guarantee: { type: "string" },
  deterministic: { type: "boolean" }, randomized: { type: "string" }, "class-conditional": { type: "boolean" },
  lambda: { type: "string" }, "k-reg": { type: "string" }, "tuning-fraction": { type: "string" }, levels: { type: "string" },
  beliefs: { type: "boolean" }, scores: { type: "boolean" }, help: { type: "boolean", short: "h" },
} as const;

function numberOption(name: string, v: string | undefined, check?: (x: number) => boolean, wanted?: string): number | undefined {
  if (v === undefined) return undefined;
  const x = Number(v);
  if (v.trim() === "" || !Number.isFinite(x)) throw new UsageError(`--${name} must be a number, not "${v}"`);
  if (check && !check(x)) throw new UsageError(`--${name} must be ${wanted}, not ${v}`);
  return x;
}

const unitOpen = (x: number) => x > 0 && x < 1;

/** Parses the arguments after the type; "help" when --help was asked for. */
export function parseOptions(type: string, args: string[]): ConformalOptions | "help" {
  let a: ReturnType<typeof parseArgs<{ args: string[]; strict: true; options: typeof SPEC }>>["values"];
  try {
    a = parseArgs({ args, strict: true, options: SPEC }).values;
  } catch (err) {
    throw new UsageError(parseArgsMessage(err, args));
  }
  if (a.help) return "help";
  if (!(TYPES as readonly string[]).includes(type)) throw new UsageError(`unknown type "${type}"; use ${TYPES.join(", ")}`);
  const t = type as ConformalType;
  if (!a.calibration) throw new UsageError("--calibration FILE is required");
  if (!a.test) throw new UsageError("--test FILE is required");
  const only = (flag: string, given: unknown, ok: boolean, where: string) => {
    if (given !== undefined && given !== false && !ok) throw new UsageError(`--${flag} applies to ${where} only`);
  };
  const method = a.method?.trim().toUpperCase();
  only("class-conditional", a["class-conditional"], t === "set", "set");
  only("beliefs", a.beliefs, t === "set", "set");
  only("scores", a.scores, t === "set", "set");
  only("levels", a.levels, t === "interval", "interval");
  for (const f of ["lambda", "k-reg", "tuning-fraction"] as const) only(f, a[f], t === "set" && method === "RAPS", "set --method RAPS");
  if (a.randomized !== undefined && !["on", "off", "true", "false"].includes(a.randomized)) throw new UsageError(`--randomized must be on or off, not "${a.randomized}"`);
  const randomizedFlag = a.randomized === undefined ? undefined : a.randomized === "on" || a.randomized === "true";
  if (a.deterministic && randomizedFlag) throw new UsageError("--deterministic and --randomized on contradict each other");
  const randomized = a.deterministic ? false : randomizedFlag;
  only(a.deterministic ? "deterministic" : "randomized", randomized, t === "set" || t === "interval" || t === "claim", "set, interval and claim");
  const seedText = a.seed ?? "0";
  const integer = /^\d+$/.test(seedText);
  const seed = integer ? Number(BigInt(seedText) & 0xffffffffn) : C.seedFromString(seedText);
  let levels: string[] | undefined;
  if (a.levels !== undefined) {
    try {
      levels = a.levels.trim().startsWith("[") ? (JSON.parse(a.levels) as unknown[]).map(String) : a.levels.split(",").map((s) => s.trim());
    } catch {
      throw new UsageError(`--levels must be names separated by commas or a JSON array, not ${a.levels}`);
    }
    if (levels.length < 1 || levels.some((l) => l === "") || new Set(levels).size !== levels.length) throw new UsageError("--levels must name each level once, none empty");
  }
  return {
    type: t,
    calibration: a.calibration,
    test: a.test,
    ...(a.method !== undefined ? { method: a.method } : {}),
    alpha: numberOption("alpha", a.alpha, unitOpen, "strictly between 0 and 1") ?? 0.1,
    rng: C.mulberry32(seed),
    seedPrinted: integer && Number.isSafeInteger(Number(seedText)) ? Number(seedText) : seedText,
    ...(randomized !== undefined ? { randomized } : {}),
    classConditional: a["class-conditional"] ?? false,
    ...(a.lambda !== undefined ? { lambda: numberOption("lambda", a.lambda, (x) => x >= 0, "≥ 0")! } : {}),
    ...(a["k-reg"] !== undefined ? { kReg: numberOption("k-reg", a["k-reg"], (x) => Number.isInteger(x) && x >= 0, "an integer ≥ 0")! } : {}),
    ...(a["tuning-fraction"] !== undefined ? { tuningFraction: numberOption("tuning-fraction", a["tuning-fraction"], unitOpen, "strictly between 0 and 1")! } : {}),
    ...(levels ? { levels } : {}),
    beliefs: a.beliefs ?? false,
    scores: a.scores ?? false,
    ...(a.guarantee !== undefined ? { guarantee: a.guarantee } : {}),
    ...(a.target !== undefined ? { target: numberOption("target", a.target, unitOpen, "strictly between 0 and 1")! } : {}),
    ...(a.delta !== undefined ? { delta: numberOption("delta", a.delta, unitOpen, "strictly between 0 and 1")! } : {}),
  };
}
