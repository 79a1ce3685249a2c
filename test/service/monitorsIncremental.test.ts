// Coverage and risk monitors over interval, claim, gate and set examples: fed batch by batch, the service
// extends each calibration with the batch before (O(batch)); the e-process states it reaches equal, bit for bit,
// those computed with every calibration rebuilt from the whole profile at each batch (a fresh profile state
// per batch, which has nothing to extend), and so do the answers of the last version.
import { describe, expect, it } from "vitest";
import type { ExampleRecord } from "../../src/api/index.js";
import { createMonitor } from "../../src/conformal/index.js";
import { evaluate } from "../../src/service/engine/evaluate.js";
import { intervalCalibration } from "../../src/service/engine/calibrations.js";
import { claimCalibration } from "../../src/service/engine/claimCalibration.js";
import { gateCalibration } from "../../src/service/engine/gateCalibration.js";
import { prepareExamples } from "../../src/service/profiles/ingest.js";
import { ProfileState } from "../../src/service/profiles/profileState.js";
import type { MonitorDefinition, MonitorState } from "../../src/service/profiles/records.js";
import { lcg, setExample } from "./helpers.js";

const LEVELS = ["none", "low", "mid", "high", "max"];

function example(rand: () => number, i: number): ExampleRecord {
  const kind = Math.floor(rand() * 4);
  if (kind === 0) {
    const centre = Math.floor(rand() * LEVELS.length);
    const raw = LEVELS.map((_, j) => Math.exp(-Math.abs(j - centre) * (0.3 + rand())));
    const sum = raw.reduce((a, b) => a + b, 0);
    const y = Math.min(LEVELS.length - 1, Math.max(0, centre + Math.round((rand() - 0.5) * 3)));
    return { context: `lvl ${i}`, label: LEVELS[y]!, metadata: { evidence: { level_probabilities: Object.fromEntries(LEVELS.map((l, j) => [l, raw[j]! / sum])) } } } as ExampleRecord;
  }
  if (kind === 1) {
    const pass = rand() < 0.7;
    const p = Math.round((pass ? 0.4 + rand() * 0.6 : rand() * 0.8) * 20) / 20; // ties, as sample frequencies give
    return { context: `gate ${i}`, label: pass ? "pass" : "fail", metadata: { evidence: { option_probabilities: { pass: p, fail: 1 - p } } } } as ExampleRecord;
  }
  if (kind === 2) {
    const wrong = rand() < 0.3;
    return {
      context: `claims ${i}`,
      label: { claims: [{ text: "The sky is blue.", correct: true }, { text: `Fact ${i % 7} holds.`, correct: !wrong }] },
      metadata: { evidence: { samples: ["The sky is blue.", `Fact ${i % 7} holds. The sky is blue.`, rand() < 0.5 ? `Fact ${i % 7} holds.` : "Nothing."] } },
    } as ExampleRecord;
  }
  return setExample(rand, i) as ExampleRecord;
}

const definition = (id: string, type: "coverage" | "risk", target: number): MonitorDefinition => ({
  id, type, target, false_alarm_rate: 0.01, labelled_sample_rate: 1, use_judge_pseudo_labels: false, created_at: "2026-01-01T00:00:00.000Z", start_n: 0,
});

function profileWithMonitors(method: string, monitors: Map<string, MonitorState>): ProfileState {
  const state = new ProfileState({ name: "inc", backend: { provider: "client_evidence" } as never, method, alpha: 0.1, strict_fingerprint: false, created_at: "2026-01-01T00:00:00.000Z" });
  for (const [id, m] of monitors) {
    const def = id === "risk" ? definition(id, "risk", 0.2) : definition(id, "coverage", id === "cov05" ? 0.05 : 0.15);
    state.monitors.set(id, { definition: def, state: structuredClone(m) });
  }
  return state;
}

const now = new Date("2026-01-02T00:00:00.000Z");

describe("monitors and calibrations extended batch by batch", () => {
  for (const method of ["ordinal-aps", "CQR", "APS"]) {
    it(`reach the states and answers of a full rebuild at every batch (${method})`, async () => {
      const rand = lcg(method.length * 7919);
      const batches: ExampleRecord[][] = Array.from({ length: 14 }, (_, b) => Array.from({ length: 25 + ((b * 37) % 60) }, (_, i) => example(rand, b * 1000 + i)));
      const initial = new Map<string, MonitorState>(["cov15", "cov05", "risk"].map((id) => [id, {
        eprocess: createMonitor(id === "risk" ? 0.2 : id === "cov05" ? 0.05 : 0.15, 0.01), status: "active" as const, alerts: [],
      }]));
      // Incremental: one state that lives through every batch, its calibrations extended.
      const live = profileWithMonitors(method, initial);
      const liveStates: Record<string, MonitorState>[] = [];
      for (const batch of batches) {
        // Asking between batches makes each calibration exist at every version, so the next one extends it.
        intervalCalibration(live, LEVELS, method === "CQR" ? "CQR" : "ordinal-aps", 0.15);
        claimCalibration(live, 0.15);
        gateCalibration(live, { guarantee: "risk", target: 0.2, fail: 1, pass: 0 });
        const { record } = prepareExamples(live, batch, undefined, now);
        live.apply(record);
        liveStates.push(Object.fromEntries([...live.monitors].map(([id, m]) => [id, structuredClone(m.state)])));
      }
      // Reference: a fresh state per batch holding the examples before it, so every calibration is built whole.
      let monitors = initial;
      for (let b = 0; b < batches.length; b++) {
        const fresh = profileWithMonitors(method, monitors);
        for (let a = 0; a < b; a++) fresh.apply({ t: "examples", at: now.toISOString(), examples: batches[a]! });
        const { record } = prepareExamples(fresh, batches[b]!, undefined, now);
        fresh.apply(record);
        monitors = new Map([...fresh.monitors].map(([id, m]) => [id, structuredClone(m.state)]));
        expect(liveStates[b]).toEqual(Object.fromEntries(monitors));
      }
      // The monitors saw misses and moved: a wrong calibration would have shown.
      for (const id of ["cov15", "cov05", "risk"]) {
        expect(monitors.get(id)!.eprocess.t).toBeGreaterThan(50);
        expect(monitors.get(id)!.eprocess.errors).toBeGreaterThan(0);
      }
      // Answers of the last version: every query type that extends, against a state built whole.
      const whole = profileWithMonitors(method, new Map());
      for (const batch of batches) whole.apply({ t: "examples", at: now.toISOString(), examples: batch });
      const request = {
        context: "c", backend: { provider: "client_evidence", name: "m", access_level: "L1" },
        queries: {
          i: { type: "interval", instructions: "How much?", levels: LEVELS, calibration_profile: "inc", evidence: { level_probabilities: { none: 0.05, low: 0.2, mid: 0.5, high: 0.2, max: 0.05 } } },
          g: { type: "gate", instructions: "OK?", calibration_profile: "inc", guarantee: "risk", target: 0.2, evidence: { option_probabilities: { pass: 0.7, fail: 0.3 } } },
          f: { type: "gate", instructions: "OK?", calibration_profile: "inc", guarantee: "fdr", target: 0.2, evidence: { option_probabilities: { pass: 0.9, fail: 0.1 } } },
          h: { type: "gate", instructions: "OK?", calibration_profile: "inc", guarantee: "risk_high_probability", target: 0.3, delta: 0.1, evidence: { option_probabilities: { pass: 0.8, fail: 0.2 } } },
          // Fractional losses: no exact sorted form; rebuilt (on the whole pool at this size), same answer.
          w: { type: "gate", instructions: "OK?", calibration_profile: "inc", guarantee: "risk", target: 0.3, loss: { fail: 0.7, pass: 0.2 }, evidence: { option_probabilities: { pass: 0.75, fail: 0.25 } } },
          c: { type: "claim", instructions: "Facts", calibration_profile: "inc", evidence: { samples: ["The sky is blue. Fact 3 holds.", "The sky is blue.", "Fact 3 holds."] } },
          s: { type: "set", instructions: "Pick", options: { A: "a", B: "b", C: "c", D: "d" }, calibration_profile: "inc", evidence: { option_probabilities: { A: 0.4, B: 0.3, C: 0.2, D: 0.1 } } },
        },
      };
      const ask = async (state: ProfileState) => JSON.stringify(await evaluate(request as never, { profiles: { get: () => state }, backends: {}, humanQueue: {} } as never, "req_same"));
      expect(await ask(live)).toBe(await ask(whole));
    });
  }
});
