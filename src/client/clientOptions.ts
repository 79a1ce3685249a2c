// Options both clients share, with their defaults.
import type { Dispatcher } from "undici";
import type { RetryPolicy } from "./retryPolicy.js";

export interface HttpClientOptions {
  /** API key. Omitted from requests when absent (a loopback self-hosted service needs none). */
  apiKey?: string;
  /** Deadline of one call, retries and backoff waits included, in milliseconds. Default 120,000 ms. */
  timeoutMs?: number;
  /** Time allowed for each attempt's response headers, and between body chunks, in milliseconds. Default 60,000 ms. */
  attemptTimeoutMs?: number;
  /** Retry policy (retryPolicy.ts for each field's default), or `false` for a single attempt. */
  retry?: RetryPolicy | false;
  /**
   * The undici dispatcher to send through. Default: the shared one (dispatcher.ts). A custom one must carry undici's
   * retry interceptor (build it with createClientDispatcher) or no retry happens.
   */
  dispatcher?: Dispatcher;
  /** Extra headers sent on every request (lower-case names). */
  headers?: Record<string, string>;
}

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 60_000;
