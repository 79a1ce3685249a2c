// Checks a run makes before the model loads, so that a mistake costs seconds, not the evidence step:
// the output folder can be written, and the split leaves enough calibration examples for a finite
// threshold at the run's α.
import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { minimumN } from "../conformal/index.js";
import { RunInputError, RunOptionError } from "./errors.js";

/** `out` is a writable folder, or can be created inside the nearest existing folder above it. */
export async function checkOutDir(out: string): Promise<void> {
  let path = out;
  for (;;) {
    const info = await stat(path).catch((err: NodeJS.ErrnoException) => {
      if (err.code === "ENOENT" || err.code === "ENOTDIR") return undefined;
      throw new RunOptionError("out", `cannot inspect ${path} (${err.code ?? err.message})`);
    });
    if (info) {
      if (!info.isDirectory()) {
        throw new RunOptionError("out", path === out ? `${out} is a file, not a folder` : `${path} is a file, so ${out} cannot be created`);
      }
      await access(path, constants.W_OK).catch(() => {
        throw new RunOptionError("out", `${path} is not writable${path === out ? "" : `, so ${out} cannot be created`}`);
      });
      return;
    }
    const parent = dirname(path);
    if (parent === path) return;
    path = parent;
  }
}

/**
 * The split's calibration part must reach minimum_n (below it the threshold is infinite and the
 * service answers 424), and the test part must hold an item.
 */
export function checkSplitSizes(sizes: { calibration: number; test: number }, usable: number, alpha: number, file: string): void {
  const need = minimumN(alpha);
  if (sizes.calibration < need || sizes.test < 1) {
    throw new RunInputError(
      file,
      `${usable} usable items split into ${sizes.calibration} calibration and ${sizes.test} test items; α = ${alpha} needs at least ` +
        `${need} calibration examples (minimum_n) and one test item — use more items (--limit, --calibration) or a larger α`,
    );
  }
}
