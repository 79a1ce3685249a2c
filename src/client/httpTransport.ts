// One JSON call over the shared dispatcher, for both clients: headers, deadline, per-call retry policy, and
// undici's failures turned into our errors. Status codes are left to each client, which knows its service.
import { randomUUID } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { request, type Dispatcher } from "undici";
import { AbortedError, NetworkError, TimeoutError } from "./errors.js";
import { retryFunctionFor, type RetryTrace } from "./retryHandler.js";
import type { ResolvedRetryPolicy } from "./retryPolicy.js";

/** Sent on every POST; the same value on each retry of one call, so that a service can recognise a replay. */
export const IDEMPOTENCY_KEY_HEADER = "idempotency-key";
export const REQUEST_ID_HEADER = "x-request-id";
const USER_AGENT = "calibkit-client/0.1";

export interface TransportOptions {
  /** Absolute URL prefix without a trailing slash; paths are appended to it. */
  baseUrl: string;
  headers: Record<string, string>;
  dispatcher: Dispatcher;
  retry: ResolvedRetryPolicy;
  /** Deadline of one call, retries and waits included, in milliseconds. */
  timeoutMs: number;
  /** Headers and body timeout of each attempt, in milliseconds. */
  attemptTimeoutMs: number;
}

/** Per-call options every client method takes. */
export interface CallOptions {
  /** Aborts the call, retries and waits included; the call then rejects with AbortedError. */
  signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this call, in milliseconds. */
  timeoutMs?: number;
  /** Idempotency key sent on a POST (default: a fresh UUID per call); pass your own to dedupe across processes. */
  idempotencyKey?: string;
}

export interface RawResponse {
  url: string;
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The parsed body; undefined when it was empty or not JSON (`jsonError` then says why). */
  json: unknown;
  jsonError: unknown;
  /** The `x-request-id` header, when sent. */
  headerRequestId: string | undefined;
  trace: RetryTrace;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function isTimeoutCode(code: unknown): boolean {
  return code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT" || code === "UND_ERR_CONNECT_TIMEOUT";
}

export async function sendJson(
  transport: TransportOptions, method: "GET" | "POST", path: string, body: unknown, call: CallOptions = {},
): Promise<RawResponse> {
  const url = `${transport.baseUrl}${path}`;
  const timeoutMs = call.timeoutMs ?? transport.timeoutMs;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = call.signal ? AbortSignal.any([call.signal, deadline]) : deadline;
  const headers: Record<string, string> = { accept: "application/json", "user-agent": USER_AGENT, ...transport.headers };
  let payload: string | undefined;
  if (method === "POST") {
    // A string, never a stream: undici can replay it on a retry.
    payload = JSON.stringify(body ?? {});
    headers["content-type"] = "application/json";
    headers[IDEMPOTENCY_KEY_HEADER] = call.idempotencyKey ?? randomUUID();
  }
  const trace: RetryTrace = { attempts: 0, delaysMs: [] };
  try {
    const response = await request(url, {
      method,
      headers,
      body: payload,
      signal,
      dispatcher: transport.dispatcher,
      headersTimeout: transport.attemptTimeoutMs,
      bodyTimeout: transport.attemptTimeoutMs,
      // Read by undici's retry interceptor (dispatcher.ts), which merges it over its own options.
      retryOptions: { retry: retryFunctionFor(transport.retry, trace, signal) },
    } as Parameters<typeof request>[1]);
    const text = await response.body.text();
    let json: unknown;
    let jsonError: unknown;
    if (text.trim() !== "") {
      try {
        json = JSON.parse(text);
      } catch (error) {
        jsonError = error;
      }
    }
    return {
      url, status: response.statusCode, headers: response.headers, text, json, jsonError, trace,
      headerRequestId: headerValue(response.headers[REQUEST_ID_HEADER]),
    };
  } catch (error) {
    if (call.signal?.aborted) throw new AbortedError(`${method} ${url} was aborted`, call.signal.reason ?? error);
    if (deadline.aborted) throw new TimeoutError(`${method} ${url} took longer than ${timeoutMs} ms`, timeoutMs, error);
    const code = (error as { code?: unknown }).code;
    if (isTimeoutCode(code)) {
      throw new TimeoutError(
        `${method} ${url}: no answer within ${transport.attemptTimeoutMs} ms (${String(code)})`, transport.attemptTimeoutMs, error,
      );
    }
    const reason = error instanceof Error ? error.message : String(error);
    throw new NetworkError(`${method} ${url} failed: ${reason}${typeof code === "string" ? ` (${code})` : ""}`, error);
  }
}
