// A realistic RunSummary for report tests, built with the real conformal engine on synthetic scores
// so the plots have the shapes a run produces.
import { clopperPearson, createMonitor, monitorEValue, mulberry32, updateMonitor } from "../../src/conformal/index.js";
import type { RunSummary } from "../../src/report/index.js";
import { sampleStatistics } from "./sampleStatistics.js";

export function sampleSummary(overrides: Partial<RunSummary> = {}): RunSummary {
  const rng = mulberry32(11);
  let state = createMonitor(0.1, 0.01);
  const path: { n: number; eValue: number }[] = [];
  for (let n = 1; n <= 200; n++) {
    state = updateMonitor(state, rng() < 0.08);
    path.push({ n, eValue: monitorEValue(state) });
  }
  const ci = clopperPearson(181, 200);
  const sweep = [0.05, 0.1, 0.15, 0.2, 0.3, 0.4].map((alpha) => {
    const target = 1 - alpha;
    return { alpha, target, coverage: Math.min(1, target + (rng() - 0.5) * 0.03), averageSetSize: 1 + 2 * alpha, band: [target - 0.04, target + 0.04] as [number, number] };
  });
  const bins = Array.from({ length: 10 }, (_, i) => {
    const mid = (i + 0.5) / 10;
    return { lower: i / 10, upper: (i + 1) / 10, count: 40 + Math.round(rng() * 200), meanBelief: mid, observed: Math.min(1, Math.max(0, mid + (rng() - 0.5) * 0.1)), meanP0: mid - 0.02, meanP1: mid + 0.02 };
  });
  const audit: RunSummary["audit"] = { result: "pass", realizedCoverage: 181 / 200, ci, sample: 200, target: 0.9, date: "2025-01-01T00:00:00.000Z" };
  return {
    calibkit: "0.1.0",
    createdAt: "2025-01-01T00:00:00.000Z",
    model: { path: "../shared/models/stories260K.gguf", backend: "llama.cpp", accessLevel: "L3", fingerprint: "sha256:abc" },
    dataset: { path: "fixtures/story-cloze.jsonl", kind: "multiple_choice", items: 2400, seed: 1 },
    service: { url: "http://127.0.0.1:5555/api/v1", embedded: true },
    profile: { name: "story-cloze", method: "LAC", alpha: 0.1, n: 1000, status: "serving", minimumN: 9, recommendedN: 860 },
    split: { calibration: 1000, test: 500, audit: 200, monitor: 200 },
    test: { n: 500, target: 0.9, coverage: 0.904, band: [0.86, 0.94], averageSetSize: 1.42, accuracy: 0.83,
      setSizes: [{ size: 1, count: 310 }, { size: 2, count: 160 }, { size: 3, count: 30 }] },
    sweep,
    reliability: { pairs: 2000, bins },
    statistics: sampleStatistics(audit),
    audit,
    monitor: { id: "m1", type: "coverage", target: 0.1, falseAlarmRate: 0.01, status: "active", threshold: 100, path, alerts: [] },
    crossCheck: { answers: 500, fields: 6000, disagreements: [] },
    timings: [{ step: "evidence", seconds: 20, items: 1900 }, { step: "evaluate", seconds: 3, items: 500 }],
    totalSeconds: 30,
    ...overrides,
  };
}
