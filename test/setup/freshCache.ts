// Each test file gets an evidence cache of its own (unless it names one): a run that is meant to call the
// model never reads rows another test file computed, and nothing lands in the user's ~/.cache.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

process.env.CALIBKIT_CACHE = mkdtempSync(join(tmpdir(), "calibkit-cache-"));
