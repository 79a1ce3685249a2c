// `calibkit conformal <type>`: runs the conformal engine on JSON files so any tool can check it
// (docs/conformal.md, "The JSON command"). Reads files; the engine itself stays pure. JSON Lines files are
// parsed line by line into typed columns and go through the engine's batch API.
import { ConformalError } from "../../conformal/setApi.js";
import { InputError } from "../conformal/records.js";
import { UsageError, parseOptions, type ConformalOptions } from "../conformal/options.js";

export const summary = "Calibrate and predict with the conformal engine on JSON / JSON Lines files";

const HELP = `usage: calibkit conformal <set|interval|belief|gate|claim> --calibration FILE --test FILE [options]

options:
  --method M            set: LAC, APS, RAPS; interval: CQR, ordinal-aps (any case). belief, gate, claim: not used
  --alpha A             miscoverage level in (0, 1) (set, interval, claim; default 0.1)
  --calibration F       labelled records, a JSON array or JSON Lines
  --test F              records to predict (labels ignored)
  --seed S              integer or any string; seeds the random source of randomized methods (default 0)
  --randomized on|off   set APS/RAPS, interval: draw u ~ U[0,1) per example; claim: break tied claim
                        scores with one u per claim (default on)
  --deterministic       the same as --randomized off
  --class-conditional   set: calibrate each true option on its own (coverage per class)
  --lambda L            set RAPS: penalty λ ≥ 0 (with --k-reg: no tuning; the other defaults to 0.01 / 5)
  --k-reg K             set RAPS: rank after which the penalty starts, an integer ≥ 0
  --tuning-fraction F   set RAPS: share of the calibration records held out to tune λ and k_reg (default 0.2)
  --scores              set: also each option's nonconformity score (scores) for every test record
  --beliefs             set: also per-option Venn–Abers [p0, p1] (venn_abers) for every test record
  --levels A,B,C        interval: the scale, low to high (default: the first calibration record's levels as
                        written); --levels=-1,0,1 when the first name starts with "-"
  --guarantee G         gate: risk, risk_high_probability or fdr
  --target T            gate: the risk or FDR level in (0, 1)
  --delta D             gate risk_high_probability: failure probability in (0, 1)
  -h, --help            this text

Records with a "group" field are calibrated per group (Mondrian): every record needs one, or none does.
Prints one JSON object: type, alpha, seed, method, n, threshold(s), predictions (one per test record, in order).
Non-finite numbers print as the strings "Infinity" / "-Infinity".
`;

type Runner = (o: ConformalOptions) => void;
const runners: Partial<Record<ConformalOptions["type"], Runner>> = {};

async function loadRunner(type: ConformalOptions["type"]): Promise<Runner> {
  if (type === "set") return (await import("../conformal/setType.js")).runSet;
  if (type === "interval") return (await import("../conformal/intervalType.js")).runInterval;
  const other = await import("../conformal/otherTypes.js");
  return type === "belief" ? other.runBelief : type === "gate" ? other.runGate : other.runClaim;
}

export async function run(argv: string[]): Promise<number> {
  const [type, ...rest] = argv;
  if (!type || type === "--help" || type === "-h") {
    process[type ? "stdout" : "stderr"].write(HELP);
    return type ? 0 : 2;
  }
  try {
    const o = parseOptions(type, rest);
    if (o === "help") {
      process.stdout.write(HELP);
      return 0;
    }
    // Each type's code is loaded when it is asked for: a process running `set` never loads the rest of the engine.
    // Once loaded, a runner is called without an await (a caller timing repeated runs sees them run through).
    (runners[o.type] ??= await loadRunner(o.type))(o);
    return 0;
  } catch (e) {
    const usage = e instanceof UsageError || (e as { code?: string }).code?.startsWith("ERR_PARSE_ARGS");
    const field = e instanceof ConformalError && e.field ? ` (field ${e.field})` : "";
    process.stderr.write(`calibkit conformal: ${(e as Error).message}${field}\n${usage ? "Run `calibkit conformal --help` for the options.\n" : ""}`);
    if (!(e instanceof InputError || e instanceof UsageError || e instanceof ConformalError || usage)) throw e;
    return usage ? 2 : 1;
  }
}
