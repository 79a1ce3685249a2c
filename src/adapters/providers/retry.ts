// The retry policy of the hosted providers whose SDKs do not honour a 429's retry headers (gemini: its
// p-retry backoff ignores them; bedrock: its retry quota and full-jitter backoff differ per client). Their
// own retries are switched off and every call goes through here, so all hosted providers behave as the
// OpenAI and Anthropic SDKs do (docs/service.md "Providers"): 429, 408, 409, 5xx, timeouts and dropped
// connections are retried `maxRetries` times, after the provider's `retry-after-ms` / `retry-after` when it
// sends one (up to 60 s), else with backoff 0.5 s, 1 s, 2 s … (at most 8 s, up to 25% jitter off).
import { AdapterError } from "../errors.js";

export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** Milliseconds one attempt may take before it is abandoned and retried. */
  timeoutMs: number;
}

/** What a provider module reads from one failed attempt: its HTTP status and retry hint, if any. */
export interface AttemptFailure {
  status?: number | undefined;
  retryAfterMs?: number | undefined;
  /** The request never got an answer (connection refused or reset). */
  connection?: boolean | undefined;
}

/** A provider's non-2xx answer, raised by a provider module with what its retry headers said. */
export class ProviderHttpError extends Error {
  override name = "ProviderHttpError";
  constructor(readonly status: number, readonly retryAfterMs: number | undefined, message: string) {
    super(message);
  }
}

const MAX_RETRY_AFTER_MS = 60_000;
const CONNECTION_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "UND_ERR_SOCKET", "UND_ERR_CONNECT_TIMEOUT"]);

/** `retry-after-ms`, else `retry-after` (seconds or an HTTP date), in milliseconds; undefined when absent or unreadable. */
export function retryAfterMs(header: (name: string) => string | null | undefined): number | undefined {
  const ms = Number(header("retry-after-ms") ?? NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = header("retry-after");
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Whether an error (or one of its causes) is a dropped or refused connection. */
export function isConnectionError(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.code === "string" && CONNECTION_CODES.has(e.code)) return true;
  }
  return false;
}

const retryable = (f: AttemptFailure) => f.connection === true || f.status === 408 || f.status === 409 || f.status === 429 || (f.status !== undefined && f.status >= 500);

function backoffMs(retry: number, failure: AttemptFailure): number {
  if (failure.retryAfterMs !== undefined && failure.retryAfterMs <= MAX_RETRY_AFTER_MS) return failure.retryAfterMs;
  return Math.min(500 * 2 ** retry, 8_000) * (1 - 0.25 * Math.random());
}

const sleep = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>((ok, fail) => {
    const onAbort = () => { clearTimeout(timer); fail(signal!.reason); };
    const timer = setTimeout(() => { signal?.removeEventListener("abort", onAbort); ok(); }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/**
 * Runs `attempt` with a fresh per-attempt deadline until it answers, a failure is not retryable, or the
 * retries are spent; `classify` reads the provider's error. The last failure is thrown as an AdapterError
 * naming the provider and the attempts (the service maps it to a 502 naming the backend).
 */
export async function withRetries<T>(
  provider: string, policy: RetryPolicy, attempt: (signal: AbortSignal) => Promise<T>, classify: (err: unknown) => AttemptFailure, callerSignal?: AbortSignal,
): Promise<T> {
  for (let retry = 0; ; retry++) {
    const deadline = AbortSignal.timeout(policy.timeoutMs);
    const signal = callerSignal ? AbortSignal.any([deadline, callerSignal]) : deadline;
    let failure: AttemptFailure;
    let error: unknown;
    try {
      return await attempt(signal);
    } catch (err) {
      if (callerSignal?.aborted) throw err;
      error = deadline.aborted ? new Error(`${provider} did not answer within ${policy.timeoutMs} ms`, { cause: err }) : err;
      failure = deadline.aborted ? { status: 408 } : err instanceof ProviderHttpError ? { status: err.status, retryAfterMs: err.retryAfterMs } : classify(err);
    }
    if (!retryable(failure) || retry >= policy.maxRetries) {
      const message = error instanceof Error ? error.message : String(error);
      throw new AdapterError(retry > 0 ? `${message} (after ${retry + 1} attempts)` : message, error);
    }
    await sleep(backoffMs(retry, failure), callerSignal);
  }
}
