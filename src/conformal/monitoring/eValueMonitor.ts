// Anytime-valid miscoverage monitor: a test martingale that bets on the miscoverage indicator exceeding α
// (testing by betting: Shafer 2021; Waudby-Smith & Ramdas 2023), with online-Newton-step bet sizes
// (Cutkosky & Orabona 2018, as in Shekhar & Ramdas 2023). Under the null E[err_t | past] ≤ α the wealth is
// a nonnegative supermartingale, so by Ville's inequality P(ever ≥ 1/rate) ≤ rate.

import { checkUnitOpen } from "../errors.js";

/** The whole monitor: a small JSON object, updated one labelled observation at a time. */
export interface MonitorState {
  readonly version: 1;
  /** Target miscoverage α (null hypothesis: miscoverage rate ≤ α). */
  readonly alpha: number;
  readonly falseAlarmRate: number;
  /** Observations so far. */
  readonly t: number;
  /** Miscoverage events so far. */
  readonly errors: number;
  /** ln of the e-value (wealth); starts at 0. */
  readonly logE: number;
  /** Current bet μ ∈ [0, 1/2] on the scaled increment (err − α)/α. */
  readonly bet: number;
  /** ONS curvature accumulator. */
  readonly curvature: number;
  /** Sticky: once the e-value reached 1/falseAlarmRate it stays alarmed (the test has rejected). */
  readonly alarmed: boolean;
  /** Observation count at the first alarm, null before. */
  readonly alarmAt: number | null;
}

const ONS_STEP = 2 / (2 - Math.log(3));
const MAX_BET = 0.5;

export function createMonitor(alpha: number, falseAlarmRate: number): MonitorState {
  checkUnitOpen(alpha, "alpha");
  checkUnitOpen(falseAlarmRate, "falseAlarmRate");
  return { version: 1, alpha, falseAlarmRate, t: 0, errors: 0, logE: 0, bet: 0, curvature: 1, alarmed: false, alarmAt: null };
}

/** One observation: `miscovered` = the truth fell outside the answer (set, interval, …). Returns a new state. */
export function updateMonitor(state: MonitorState, miscovered: boolean): MonitorState {
  const err = miscovered ? 1 : 0;
  // Scaled increment g ∈ [−1, (1−α)/α]; wealth factor 1 + μg ≥ 1/2 > 0 because μ ≤ 1/2.
  const g = (err - state.alpha) / state.alpha;
  const factor = 1 + state.bet * g;
  const logE = state.logE + Math.log(factor);
  // ONS on the loss −ln(1 + μg): gradient −g/(1 + μg).
  const z = g / factor;
  const curvature = state.curvature + z * z;
  const bet = Math.min(MAX_BET, Math.max(0, state.bet + (ONS_STEP * z) / curvature));
  const t = state.t + 1;
  const hit = logE >= Math.log(1 / state.falseAlarmRate);
  return {
    version: 1,
    alpha: state.alpha,
    falseAlarmRate: state.falseAlarmRate,
    t,
    errors: state.errors + err,
    logE,
    bet,
    curvature,
    alarmed: state.alarmed || hit,
    alarmAt: state.alarmAt ?? (hit ? t : null),
  };
}

/** The e-value (wealth), capped at Number.MAX_VALUE for JSON. */
export function monitorEValue(state: MonitorState): number {
  return Math.min(Math.exp(state.logE), Number.MAX_VALUE);
}
