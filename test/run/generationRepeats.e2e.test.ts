// The gate over free-form answers keeps its promise over repeats (issue 27): on stories260K and the bundled
// fixture with K = 5, 20 seeded calibration/test splits of the same generated answers (one generation pass, then
// the evidence cache) each give a realized risk of approving a wrong answer inside its band, with 0
// cross-check disagreements and nothing unchecked.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCalibration } from "../../src/run/index.js";
import type { QueryRunSummary } from "../../src/report/index.js";
import { GGUF } from "../cliProcess.js";

const REPEATS = 20;

describe("gate over generated answers, repeated over splits", () => {
  it("the realized risk lies inside its band on each of 20 splits, and the repeats make no model call", async () => {
    const cache = await mkdtemp(join(tmpdir(), "calibkit-generation-repeats-"));
    const risks: number[] = [];
    for (let seed = 1; seed <= REPEATS; seed++) {
      const result = await runCalibration({
        model: GGUF, generation: { task: "generic", samples: 5 }, queryType: "gate", alpha: 0.25, limit: 48, seed, cache,
      });
      const s = result.summary as QueryRunSummary;
      expect(s.crossCheck.disagreements).toEqual([]);
      expect(s.crossCheck.unchecked).toEqual({});
      expect(s.section.inBand, `seed ${seed}: ${s.section.value} outside ${s.section.band}`).toBe(true);
      if (seed > 1) expect(s.evidenceCache).toMatchObject({ computed: 0, modelCalls: 0 });
      risks.push(s.section.value);
    }
    expect(risks).toHaveLength(REPEATS);
  }, 600_000);
});
