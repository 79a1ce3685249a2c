// The conformal engine's one error class. It stays here (not in src/api) because this folder imports
// nothing: the service and the client map `code` onto their own wire errors.

export type ConformalErrorCode =
  | "INVALID_ALPHA" // alpha (or a target / delta / rate) outside (0, 1) or not a finite number
  | "INVALID_ARGUMENT" // any other bad input: NaN score, label out of range, ragged rows, empty set of examples
  | "UNKNOWN_METHOD" // a method name the registry does not know
  | "WRONG_KIND" // a calibrated object passed to the verb of another kind, or not a calibrated object at all
  | "RNG_REQUIRED" // a randomized method called without an injected random source
  | "GROUP_REQUIRED" // Mondrian calibration, prediction without a group (or the reverse)
  | "TOO_LARGE"; // a search space (route grid) above the documented limit

export class ConformalError extends Error {
  override readonly name = "ConformalError";
  readonly code: ConformalErrorCode;
  /** Dotted path of the offending argument when there is one (e.g. `labels[3]`). */
  readonly field?: string;
  /** Suggested HTTP status for callers that surface it (422: the input cannot be processed). */
  readonly status = 422;

  constructor(code: ConformalErrorCode, message: string, options: { field?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    if (options.field !== undefined) this.field = options.field;
  }
}

/** Throws INVALID_ALPHA unless 0 < x < 1. `what` names the argument in the message and `field`. */
export function checkUnitOpen(x: number, what: string): void {
  if (typeof x !== "number" || !Number.isFinite(x) || x <= 0 || x >= 1) {
    throw new ConformalError("INVALID_ALPHA", `${what} must be a number strictly between 0 and 1, got ${String(x)}`, {
      field: what,
    });
  }
}

/**
 * Caller-given uniforms (one u per row of a randomized method) must lie in [0, 1), as an rng's draws do: a u
 * outside it is no randomization at all, and the kernels that assume the range would then disagree.
 */
export function checkUniforms(u: ArrayLike<number>, count: number, field = "uniforms"): void {
  if (u.length !== count) throw invalid(`${field} has ${u.length} entries for ${count} rows`, field);
  for (let i = 0; i < count; i++) {
    const x = u[i]!;
    if (!(x >= 0 && x < 1)) throw invalid(`${field}[${i}] must be a number in [0, 1), got ${x}`, `${field}[${i}]`);
  }
}

export function invalid(message: string, field?: string): ConformalError {
  return new ConformalError("INVALID_ARGUMENT", message, field === undefined ? {} : { field });
}

/** The kind check every verb of the engine starts with (a calibrated object of another kind is refused). */
export function assertKind<K extends string>(cal: unknown, kind: K, verb: string): void {
  const k = (cal as { kind?: unknown } | null | undefined)?.kind;
  if (k !== kind) {
    throw new ConformalError(
      "WRONG_KIND",
      k === undefined
        ? `${verb} needs a calibrated ${kind} object: call calibrate first`
        : `${verb} needs a calibrated ${kind} object, got a calibrated ${String(k)} object`,
      { field: "calibrated" },
    );
  }
}

