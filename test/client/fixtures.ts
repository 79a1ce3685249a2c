// Bodies shaped as the evaluation spec says, and an injected clock that records every backoff wait.
import type { Clock } from "../../src/client/index.js";

export const profileBody = {
  name: "tickets", version: 3, method: "LAC", alpha: 0.1, n: 120, minimum_n: 9, recommended_n: 400,
  realized_coverage_ci: [0.86, 0.93], last_audit: null, backend_fingerprint: "sha256:abcdef12", group_by: null,
  groups: {}, status: "serving",
};
export const guarantee = { kind: "coverage", holds: true, alpha: 0.1, n: 120, method: "LAC", profile: "tickets" };
export const evaluateBody = {
  answers: {
    q1: { type: "set", set: ["bug"], probabilities: { bug: 0.8, feature: 0.2 }, venn_abers: { bug: [0.7, 0.85], feature: [0.1, 0.25] }, guarantee },
  },
  backend: { provider: "openai", model: "gpt-x" },
  usage: { backend_calls: 1, backend_tokens: 42 },
  warnings: [],
  request_id: "req-body",
};
export const evaluateRequest = {
  context: "The app crashes when I click save.",
  backend: { provider: "openai" as const, model: "gpt-x" },
  queries: {
    q1: { type: "set" as const, instructions: "Classify the ticket", options: { bug: "a defect", feature: "a wish" }, calibration_profile: "tickets" },
  },
};
export const auditBody = { result: "pass", realized_coverage: 0.91, ci: [0.88, 0.94], sample: 200, target: 0.9, date: "2025-01-01" };
export const monitorBody = { id: "m1", profile: "tickets", type: "coverage", target: 0.1, false_alarm_rate: 0.01, labelled_sample_rate: 0.2, status: "active" };
export const alertBody = {
  type: "coverage", severity: "critical", n: 300, e_value: 120.5, target: 0.1, false_alarm_rate: 0.01,
  detected_at: "2025-01-02T10:00:00Z", message: "miscoverage above target",
};
export const jobBody = { id: "job-1", profile: "tickets", status: "queued", total: 2, labelled: 0 };
export const example = { context: "It crashes", label: "bug" };

export interface FakeClock {
  clock: Clock;
  /** Every wait the retry policy asked for, in milliseconds. */
  sleeps: number[];
  /** Moves time on without a wait (as if an attempt took that long). */
  advance(ms: number): void;
}

/** Starts at a fixed date; sleeping returns at once and moves time on by the wait. */
export function fakeClock(start = Date.parse("2025-03-01T12:00:00Z")): FakeClock {
  let now = start;
  const sleeps: number[] = [];
  return {
    clock: {
      now: () => now,
      sleep: async (ms) => {
        sleeps.push(ms);
        now += ms;
      },
    },
    sleeps,
    advance: (ms) => {
      now += ms;
    },
  };
}
