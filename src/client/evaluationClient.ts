// The Calibrated Evaluation Service's client: one method per endpoint of spec section 4 (plus our two documented
// extensions). Each request is validated before it is sent; each answer is parsed with its schema.
import type { z } from "zod";
import {
  alertListSchema, auditResultSchema, backendListSchema, createMonitorRequestSchema, evaluateResponseSchema,
  examplesRequestSchema, humanQueueSchema, labellingJobSchema, labelWithJudgeRequestSchema, monitorListSchema,
  monitorSchema, parseCreateProfileRequest, parseEvaluateRequest, parseOrThrow, profileListSchema,
  profileNameSchema, profileSchema, resolvedHumanQueueItemSchema, resolveHumanQueueItemRequestSchema, ValidationError,
  type ResolveHumanQueueItemRequest,
  type CreateMonitorRequest, type CreateProfileRequest, type EvaluateRequestInput, type ExampleRecord,
  type LabelWithJudgeRequest,
} from "../api/index.js";
import { DEFAULT_ATTEMPT_TIMEOUT_MS, DEFAULT_TIMEOUT_MS, type HttpClientOptions } from "./clientOptions.js";
import { sharedClientDispatcher } from "./dispatcher.js";
import { evaluationErrorFrom } from "./evaluationErrors.js";
import { sendJson, type CallOptions, type TransportOptions } from "./httpTransport.js";
import { parseResponseBody } from "./responseBody.js";
import { resolveRetryPolicy } from "./retryPolicy.js";

export interface EvaluationClientOptions extends HttpClientOptions {
  /** The versioned root, ending in `/api/v1` (e.g. `http://127.0.0.1:8787/api/v1`); a trailing slash is ignored. */
  baseUrl: string;
}

/** Every answer carries the service's request id: the body's `request_id`, else the `x-request-id` header. */
export type WithRequestId<T> = T & { request_id?: string | undefined };

type Output<S extends z.ZodType> = WithRequestId<z.output<S>>;

function checkBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch (error) {
    throw new ValidationError("client options", [{ field: "baseUrl", message: `\`baseUrl\` must be an absolute http(s) URL, not ${JSON.stringify(baseUrl)}` }]);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ValidationError("client options", [{ field: "baseUrl", message: "`baseUrl` must use http or https" }]);
  }
  return url.href.replace(/\/+$/, "");
}

function segment(value: string, field: string): string {
  if (typeof value !== "string" || value === "") {
    throw new ValidationError("path parameter", [{ field, message: `\`${field}\` must be a non-empty string` }]);
  }
  return encodeURIComponent(value);
}

export class EvaluationClient {
  readonly baseUrl: string;
  readonly #transport: TransportOptions;

  constructor(options: EvaluationClientOptions) {
    this.baseUrl = checkBaseUrl(options.baseUrl);
    this.#transport = {
      baseUrl: this.baseUrl,
      headers: { ...options.headers, ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
      dispatcher: options.dispatcher ?? sharedClientDispatcher(),
      retry: resolveRetryPolicy(options.retry),
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      attemptTimeoutMs: options.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS,
    };
  }

  async #call<S extends z.ZodType>(
    schema: S, method: "GET" | "POST", path: string, body: unknown, call: CallOptions | undefined,
  ): Promise<Output<S>> {
    const what = `${method} ${path}`;
    const raw = await sendJson(this.#transport, method, path, body, call);
    if (raw.status < 200 || raw.status >= 300) throw evaluationErrorFrom(raw, what, this.#transport.retry.clock.now());
    const data = parseResponseBody(schema, raw, what) as Output<S>;
    if (typeof data === "object" && data !== null) {
      const fromBody = (data as { request_id?: unknown }).request_id;
      (data as { request_id?: string | undefined }).request_id = typeof fromBody === "string" ? fromBody : raw.headerRequestId;
    }
    return data;
  }

  #profilePath(name: string): string {
    parseOrThrow(profileNameSchema, name, "profile name");
    return `/calibration-profiles/${encodeURIComponent(name)}`;
  }

  /** POST /evaluate. A 424 rejects with InsufficientCalibrationError carrying the heuristic answers. */
  async evaluate(request: EvaluateRequestInput, call?: CallOptions): Promise<Output<typeof evaluateResponseSchema>> {
    return this.#call(evaluateResponseSchema, "POST", "/evaluate", parseEvaluateRequest(request), call);
  }

  /** POST /calibration-profiles. */
  async createProfile(request: CreateProfileRequest, call?: CallOptions): Promise<Output<typeof profileSchema>> {
    return this.#call(profileSchema, "POST", "/calibration-profiles", parseCreateProfileRequest(request), call);
  }

  /** GET /calibration-profiles: every profile, unpaged. */
  async listProfiles(call?: CallOptions): Promise<Output<typeof profileListSchema>> {
    return this.#call(profileListSchema, "GET", "/calibration-profiles", undefined, call);
  }

  /** GET /calibration-profiles/{name}. */
  async getProfile(name: string, call?: CallOptions): Promise<Output<typeof profileSchema>> {
    return this.#call(profileSchema, "GET", this.#profilePath(name), undefined, call);
  }

  /**
   * POST /calibration-profiles/{name}/examples. Not idempotent by nature: a retried call is recognised by the
   * service through its `Idempotency-Key` (docs/api.md); pass `idempotencyKey` to dedupe across processes.
   */
  async addExamples(name: string, examples: ExampleRecord[], call?: CallOptions): Promise<Output<typeof profileSchema>> {
    const path = `${this.#profilePath(name)}/examples`;
    return this.#call(profileSchema, "POST", path, parseOrThrow(examplesRequestSchema, { examples }, "examples request"), call);
  }

  /** POST /calibration-profiles/{name}/label-with-judge: starts a labelling job. */
  async labelWithJudge(name: string, request: LabelWithJudgeRequest, call?: CallOptions): Promise<Output<typeof labellingJobSchema>> {
    const path = `${this.#profilePath(name)}/label-with-judge`;
    return this.#call(labellingJobSchema, "POST", path, parseOrThrow(labelWithJudgeRequestSchema, request, "label-with-judge request"), call);
  }

  /** Extension: GET /calibration-profiles/{name}/label-with-judge/{id}, a labelling job's current state. */
  async getLabellingJob(name: string, jobId: string, call?: CallOptions): Promise<Output<typeof labellingJobSchema>> {
    const path = `${this.#profilePath(name)}/label-with-judge/${segment(jobId, "jobId")}`;
    return this.#call(labellingJobSchema, "GET", path, undefined, call);
  }

  /** POST /calibration-profiles/{name}/audit with labelled examples held out from calibration. */
  async audit(name: string, examples: ExampleRecord[], call?: CallOptions): Promise<Output<typeof auditResultSchema>> {
    const path = `${this.#profilePath(name)}/audit`;
    return this.#call(auditResultSchema, "POST", path, parseOrThrow(examplesRequestSchema, { examples }, "audit request"), call);
  }

  /** POST /calibration-profiles/{name}/monitors. */
  async createMonitor(name: string, request: CreateMonitorRequest, call?: CallOptions): Promise<Output<typeof monitorSchema>> {
    const path = `${this.#profilePath(name)}/monitors`;
    return this.#call(monitorSchema, "POST", path, parseOrThrow(createMonitorRequestSchema, request, "monitor request"), call);
  }

  /** GET /calibration-profiles/{name}/monitors. */
  async listMonitors(name: string, call?: CallOptions): Promise<Output<typeof monitorListSchema>> {
    return this.#call(monitorListSchema, "GET", `${this.#profilePath(name)}/monitors`, undefined, call);
  }

  /** GET /calibration-profiles/{name}/monitors/{id}/alerts. */
  async listAlerts(name: string, monitorId: string, call?: CallOptions): Promise<Output<typeof alertListSchema>> {
    const path = `${this.#profilePath(name)}/monitors/${segment(monitorId, "monitorId")}/alerts`;
    return this.#call(alertListSchema, "GET", path, undefined, call);
  }

  /** GET /backends: configured backends with their detected access level. */
  async listBackends(call?: CallOptions): Promise<Output<typeof backendListSchema>> {
    return this.#call(backendListSchema, "GET", "/backends", undefined, call);
  }

  /**
   * Extension: POST /human-queue/{id}/resolve — a person's answer; unless `add_example` is false it joins the
   * item's profile as a labelled example.
   */
  async resolveHumanQueueItem(id: string, request: ResolveHumanQueueItemRequest, call?: CallOptions): Promise<Output<typeof resolvedHumanQueueItemSchema>> {
    const path = `/human-queue/${segment(id, "id")}/resolve`;
    return this.#call(resolvedHumanQueueItemSchema, "POST", path, parseOrThrow(resolveHumanQueueItemRequestSchema, request, "resolve request"), call);
  }

  /** Extension: GET /human-queue, the items waiting for a person. */
  async listHumanQueue(call?: CallOptions): Promise<Output<typeof humanQueueSchema>> {
    return this.#call(humanQueueSchema, "GET", "/human-queue", undefined, call);
  }
}
