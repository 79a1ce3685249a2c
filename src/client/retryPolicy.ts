// When to retry and how long to wait: exponential backoff with full jitter, `retry-after` honoured, attempts and
// total time bounded. Pure decisions; the undici retry interceptor (retryHandler.ts) carries them out.
import { systemClock, type Clock } from "./clock.js";

/** The statuses spec section 7 asks clients to retry: rate limited, backend failed, overloaded. */
export const RETRIED_STATUSES = [429, 502, 529] as const;

export interface RetryPolicy {
  /** Most attempts for one call, the first included; 1 disables retries. Default 5. */
  maxAttempts?: number;
  /** Backoff base in milliseconds: retry k (0-based) waits random() · min(maxDelayMs, baseDelayMs · 2^k). Default 500 ms. */
  baseDelayMs?: number;
  /** Cap of the backoff ceiling in milliseconds (not applied to `retry-after`). Default 30,000 ms. */
  maxDelayMs?: number;
  /**
   * Total time budget of one call in milliseconds, measured from its first attempt: a retry whose wait would end
   * past it is not made, and the last response is reported instead. Default 60,000 ms.
   */
  maxElapsedMs?: number;
  /** Statuses that are retried. Default 429, 502, 529 (spec section 7); nothing else is retried. */
  statusCodes?: readonly number[];
  /** Uniform source in [0, 1) for the jitter. Default Math.random. */
  random?: () => number;
  /** Time source and sleep. Default the system clock. */
  clock?: Clock;
}

export type ResolvedRetryPolicy = Required<RetryPolicy>;

export const DEFAULT_RETRY_POLICY: ResolvedRetryPolicy = Object.freeze({
  maxAttempts: 5,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  maxElapsedMs: 60_000,
  statusCodes: RETRIED_STATUSES,
  random: Math.random,
  clock: systemClock,
});

/** Fills in defaults; `false` means a single attempt. */
export function resolveRetryPolicy(policy: RetryPolicy | false | undefined, fallback = DEFAULT_RETRY_POLICY): ResolvedRetryPolicy {
  if (policy === false) return { ...fallback, maxAttempts: 1 };
  const resolved = { ...fallback };
  for (const [key, value] of Object.entries(policy ?? {})) {
    if (value !== undefined) (resolved as Record<string, unknown>)[key] = value;
  }
  for (const key of ["maxAttempts", "baseDelayMs", "maxDelayMs", "maxElapsedMs"] as const) {
    if (!(Number.isFinite(resolved[key]) && resolved[key] >= 0)) throw new RangeError(`retry.${key} must be a finite number ≥ 0`);
  }
  if (resolved.maxAttempts < 1) throw new RangeError("retry.maxAttempts must be at least 1");
  return resolved;
}

/** The upper bound of the full-jitter wait before retry `k` (0 for the first retry). */
export function backoffCeilingMs(policy: ResolvedRetryPolicy, k: number): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** k);
}

/**
 * A `retry-after` header as milliseconds from `nowMs`: delay-seconds (fractions allowed) or an HTTP date.
 * A date in the past reads as 0; a value that is neither reads as undefined (the backoff applies).
 */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

export interface RetryDecision {
  retry: boolean;
  /** How long to wait before the next attempt, in milliseconds (0 when not retrying). */
  delayMs: number;
  /** Why no retry is made, for error messages. */
  reason?: string;
}

export interface AttemptOutcome {
  status: number;
  /** 1 for the first attempt. */
  attempt: number;
  retryAfter?: string | string[] | undefined;
  /** Clock time of the first attempt's start. */
  startedAt: number;
}

/** Whether an attempt that ended with `status` is retried, and after how long. */
export function decideRetry(policy: ResolvedRetryPolicy, outcome: AttemptOutcome): RetryDecision {
  if (!policy.statusCodes.includes(outcome.status)) return { retry: false, delayMs: 0, reason: `status ${outcome.status} is not retried` };
  if (outcome.attempt >= policy.maxAttempts) {
    return { retry: false, delayMs: 0, reason: `gave up after ${outcome.attempt} attempt${outcome.attempt === 1 ? "" : "s"}` };
  }
  const now = policy.clock.now();
  const retryAfterMs = parseRetryAfter(outcome.retryAfter, now);
  const delayMs = retryAfterMs ?? policy.random() * backoffCeilingMs(policy, outcome.attempt - 1);
  const elapsed = now - outcome.startedAt;
  if (elapsed + delayMs > policy.maxElapsedMs) {
    return {
      retry: false,
      delayMs: 0,
      reason: `the next attempt (in ${Math.round(delayMs)} ms${retryAfterMs === undefined ? "" : ", from retry-after"}) would end past the ${policy.maxElapsedMs} ms time budget`,
    };
  }
  return { retry: true, delayMs };
}
