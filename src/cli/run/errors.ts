// A run's input that cannot be used as given (wrong dataset kind, too few items): names the file.
import { CalibkitError } from "../../api/index.js";

export class RunInputError extends CalibkitError {
  override name = "RunInputError";
  constructor(file: string, problem: string) {
    super("RUN_INPUT_INVALID", `${file}: ${problem}`);
  }
}
