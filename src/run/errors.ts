// The run's typed errors: an input that cannot be used as given (wrong dataset kind, too few items) names
// the file; an option that is wrong names the option (`field`), whether a command line or a library caller gave it.
import { CalibkitError } from "../api/index.js";

export class RunInputError extends CalibkitError {
  override name = "RunInputError";
  constructor(file: string, problem: string) {
    super("RUN_INPUT_INVALID", `${file}: ${problem}`);
  }
}

export class RunOptionError extends CalibkitError {
  override name = "RunOptionError";
  constructor(option: string, message: string) {
    super("RUN_OPTION_INVALID", `--${option}: ${message}`, { field: option });
  }
}

/** The caller's AbortSignal stopped the run; the signal's reason is the cause. */
export class RunAbortedError extends CalibkitError {
  override name = "RunAbortedError";
  constructor(reason: unknown) {
    super("RUN_ABORTED", "the run was aborted", { cause: reason });
  }
}

/** The query type asked for needs items of another kind than the dataset holds. */
export class QueryTypeMismatchError extends CalibkitError {
  override name = "QueryTypeMismatchError";
  constructor(message: string) {
    super("RUN_QUERY_TYPE_MISMATCH", message, { field: "query-type" });
  }
}
