// The Mail Sending Service's client: send, batchSend and our status extension. Recipients are checked before
// anything is sent; the envelope's verdict (success, code) decides, not the HTTP status alone.
import type { z } from "zod";
import {
  batchSendResultSchema, fieldIssues, mailEnvelopeSchema, parseBatchSendRequest, parseSendRequest, sendResultSchema,
  sendStatusSchema, ValidationError,
  type BatchSendRequest, type BatchSendResult, type SendRequest, type SendResult, type SendStatus,
} from "../api/index.js";
import { DEFAULT_ATTEMPT_TIMEOUT_MS, DEFAULT_TIMEOUT_MS, type HttpClientOptions } from "./clientOptions.js";
import { sharedClientDispatcher } from "./dispatcher.js";
import { HttpError, ResponseFormatError } from "./errors.js";
import { sendJson, type CallOptions, type RawResponse, type TransportOptions } from "./httpTransport.js";
import { MailServiceError, MailTransportError } from "./mailErrors.js";
import { mailApiPrefix } from "./mailUrl.js";
import { describeBody } from "./responseBody.js";
import { resolveRetryPolicy } from "./retryPolicy.js";

export interface MailClientOptions extends HttpClientOptions {
  /** The service's address, with or without a trailing `/api` and slash (mailUrl.ts). */
  baseUrl: string;
  /**
   * Sent as `X-API-Key` on every request (omitted when absent). Inherited from HttpClientOptions; note that
   * `retry` defaults to `false` here: a replayed send may mail twice unless the service honours Idempotency-Key.
   */
  apiKey?: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export class MailClient {
  /** The resolved prefix, e.g. `http://h:1/api/batch_mail/api/`. */
  readonly apiPrefix: string;
  readonly #transport: TransportOptions;

  constructor(options: MailClientOptions) {
    this.apiPrefix = mailApiPrefix(options.baseUrl);
    this.#transport = {
      baseUrl: this.apiPrefix.replace(/\/$/, ""),
      headers: { ...options.headers, ...(options.apiKey ? { "x-api-key": options.apiKey } : {}) },
      dispatcher: options.dispatcher ?? sharedClientDispatcher(),
      retry: resolveRetryPolicy(options.retry ?? false),
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      attemptTimeoutMs: options.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS,
    };
  }

  /** POST …/send: one recipient. Resolves to the send result with safe defaults for missing fields. */
  async send(request: SendRequest, call?: CallOptions): Promise<SendResult> {
    const body = parseSendRequest(request);
    const raw = await sendJson(this.#transport, "POST", "/send", body, call);
    return this.#result(sendResultSchema, raw, "POST /send");
  }

  /** POST …/batch_send: the same message to every recipient. */
  async batchSend(request: BatchSendRequest, call?: CallOptions): Promise<BatchSendResult> {
    const body = parseBatchSendRequest(request);
    const raw = await sendJson(this.#transport, "POST", "/batch_send", body, call);
    return this.#result(batchSendResultSchema, raw, "POST /batch_send");
  }

  /** Extension: GET …/status/{api_log_id}, the lifecycle of an earlier send. */
  async getSendStatus(apiLogId: string | number, call?: CallOptions): Promise<SendStatus> {
    const id = String(apiLogId);
    if (id === "") throw new ValidationError("path parameter", [{ field: "apiLogId", message: "`apiLogId` must not be empty" }]);
    const path = `/status/${encodeURIComponent(id)}`;
    const raw = await sendJson(this.#transport, "GET", path, undefined, call);
    return this.#result(sendStatusSchema, raw, `GET ${path}`);
  }

  #result<S extends z.ZodType>(schema: S, raw: RawResponse, what: string): z.output<S> {
    if (raw.json === undefined) {
      throw new MailTransportError(
        `${what} at ${raw.url}: the mail service answered ${raw.status} with no JSON envelope (${describeBody(raw)})`,
        { status: raw.status, body: raw.text, cause: raw.jsonError },
      );
    }
    const json = raw.json;
    const looksLikeEnvelope = isObject(json) && (typeof json.success === "boolean" || typeof json.code === "number");
    if (!looksLikeEnvelope) {
      const message = `${what} at ${raw.url}: the mail service answered ${raw.status} with JSON that is no envelope (${describeBody(raw)})`;
      if (raw.status >= 500) throw new HttpError(message, { status: raw.status, body: json, attempts: raw.trace.attempts });
      throw new MailTransportError(message, { status: raw.status, body: raw.text });
    }
    const envelope = mailEnvelopeSchema.parse(json);
    // Missing `code` beside `success: true` reads as 0 (docs/api.md); beside a failure it stays unknown.
    const code = envelope.code ?? (envelope.success ? 0 : null);
    if (!envelope.success || code !== 0) {
      throw new MailServiceError(what, { status: raw.status, mailCode: code, msg: envelope.msg, data: envelope.data });
    }
    if (raw.status < 200 || raw.status >= 300) {
      throw new HttpError(`${what}: the mail service answered ${raw.status} with a success envelope`, {
        status: raw.status, body: json, attempts: raw.trace.attempts,
      });
    }
    // The result sits in `data`; a service that puts its fields beside the envelope's is read there instead.
    const inData = isObject(envelope.data);
    const { success: _s, code: _c, msg: _m, data: _d, ...beside } = json as Record<string, unknown>;
    const result = schema.safeParse(inData ? envelope.data : beside);
    if (result.success) return result.data;
    const issues = fieldIssues(result.error).map((i) =>
      inData ? { field: `data.${i.field}`, message: i.message.replace(/^`([^`]*)`/, "`data.$1`") } : i);
    throw new ResponseFormatError(`${what}: the result does not match the mail spec: ${issues.map((i) => i.message).join("; ")}`, {
      status: raw.status, issues, cause: result.error,
    });
  }
}
