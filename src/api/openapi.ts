// The OpenAPI 3.1 documents of both services, generated from the schemas of this folder (openapiDocument.ts):
// served by each service (GET /api/v1/openapi.json, GET /api/batch_mail/api/openapi.json) and committed under
// docs/openapi/, where a test keeps them equal to what this writes.
import { z } from "zod";
import { serviceBackendInfoSchema } from "./backends.js";
import { errorBodySchema } from "./errorBody.js";
import { evaluateRequestSchema, evaluateResponseSchema } from "./evaluate.js";
import { humanQueueSchema, resolvedHumanQueueItemSchema, resolveHumanQueueItemRequestSchema } from "./humanQueue.js";
import { batchSendRequestSchema, batchSendResultSchema, mailEnvelopeSchema, sendRequestSchema, sendResultSchema, sendStatusSchema } from "./mail.js";
import { alertListSchema, createMonitorRequestSchema, monitorListSchema, monitorSchema } from "./monitor.js";
import { operation, type OperationSpec } from "./openapiDocument.js";
import {
  auditRequestSchema, auditResultSchema, createProfileRequestSchema, exampleRecordSchema, examplesRequestSchema, labelWithJudgeRequestSchema,
  profileListSchema, profileSchema, serviceLabellingJobSchema,
} from "./profile.js";

type Json = Record<string, unknown>;

export const EVALUATION_API_BASE = "/api/v1";
export const MAIL_API_BASE = "/api/batch_mail/api";

const metricsText: OperationSpec = {
  summary: "Prometheus metrics", text: "text/plain; version=0.0.4",
  responses: { 200: ["The Prometheus text format", z.string()] },
};
const profileParam = { name: "The profile's name" };

/** The evaluation service (`calibkit serve`). */
export function evaluationServiceOpenApi(): Json {
  const errors: Record<number, [string, z.ZodType]> = {
    401: ["Missing or wrong API key", errorBodySchema],
    429: ["Rate limited (per key), or too many failed authentications from the address; see retry-after", errorBodySchema],
    404: ["No endpoint at this path", errorBodySchema],
    405: ["A method the path does not take", errorBodySchema],
    500: ["An unexpected failure (its stack is in the service's log)", errorBodySchema],
    503: ["The store is away (the disk full, the database unreachable) or a profile is still loading; see retry-after", errorBodySchema],
    529: ["Site Overloaded; see retry-after", errorBodySchema],
  };
  const withBody: Record<number, [string, z.ZodType]> = {
    ...errors,
    400: ["The body is empty or not JSON", errorBodySchema],
    408: ["The body did not arrive in time", errorBodySchema],
    413: ["The body is larger than max_body_bytes", errorBodySchema],
    415: ["Not Content-Type: application/json", errorBodySchema],
    422: ["Invalid: `field` names the first offending field, `issues` all of them", errorBodySchema],
  };
  const notFound: [string, z.ZodType] = ["No such profile (or monitor, job, item)", errorBodySchema];
  const security = [{ bearer: [] }];
  const op = (id: string, spec: OperationSpec) => operation(id, spec, spec.request ? withBody : errors, security);
  const base = EVALUATION_API_BASE;
  const profile = `${base}/calibration-profiles/{name}`;
  return {
    openapi: "3.1.0",
    info: {
      title: "calibkit Calibrated Evaluation Service", version: "1",
      description: "Guaranteed answers from client evidence: calibration profiles, evaluate (seven query types), audits, monitors, backends, label-with-judge and the human queue. docs/service.md and docs/http-api.md.",
    },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    servers: [{ url: "http://127.0.0.1:8787", description: "calibkit serve on loopback (--port)" }],
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "A configured API key; none needed on a loopback service without keys" } } },
    paths: {
      [`${base}/evaluate`]: {
        post: op("evaluate", {
          summary: "Evaluate queries against calibrated profiles", request: evaluateRequestSchema,
          responses: {
            200: ["Every answer, each with its guarantee", evaluateResponseSchema],
            404: ["A query names an unknown profile (`field` says which)", errorBodySchema],
            424: ["Too few examples for some guarantee: every answer (the short ones heuristic) plus error and message", evaluateResponseSchema],
            502: ["A backend failed or reaches a lower level than asked", errorBodySchema],
            503: ["The store is away or a profile is still loading; see retry-after", errorBodySchema],
          },
        }),
      },
      [`${base}/calibration-profiles`]: {
        post: op("createProfile", {
          summary: "Create a calibration profile (the same definition again returns it)", request: createProfileRequestSchema,
          responses: { 201: ["Created", profileSchema], 200: ["It existed with this definition", profileSchema], 409: ["It exists with another definition", errorBodySchema] },
        }),
        get: op("listProfiles", { summary: "List the profiles", responses: { 200: ["The profiles", profileListSchema] } }),
      },
      [profile]: { get: op("getProfile", { summary: "Read a profile", params: profileParam, responses: { 200: ["The profile", profileSchema], 404: notFound } }) },
      [`${profile}/examples`]: {
        post: op("addExamples", {
          summary: "Add calibration examples (Idempotency-Key makes a retry safe)", params: profileParam, request: examplesRequestSchema,
          responses: { 200: ["The profile after the batch (with warnings, or idempotent_replay on a replay)", profileSchema], 404: notFound },
        }),
        get: op("listExamples", {
          summary: "Read the examples, a page at a time", params: profileParam,
          query: { offset: ["First example (default 0)", { type: "integer", minimum: 0 }], limit: ["Examples per page (default 1000, at most 10000)", { type: "integer", minimum: 1, maximum: 10000 }] },
          responses: { 200: ["A page", z.looseObject({ examples: z.array(exampleRecordSchema), offset: z.number(), total: z.number(), version: z.number() })], 404: notFound },
        }),
      },
      [`${profile}/label-with-judge`]: {
        post: op("labelWithJudge", { summary: "Start a job labelling examples with a judge backend", params: profileParam, request: labelWithJudgeRequestSchema, responses: { 202: ["The job", serviceLabellingJobSchema], 404: notFound } }),
      },
      [`${profile}/label-with-judge/{id}`]: {
        get: op("getLabellingJob", { summary: "Read a labelling job", params: { ...profileParam, id: "The job's id" }, responses: { 200: ["The job", serviceLabellingJobSchema], 404: notFound } }),
      },
      [`${profile}/audit`]: {
        post: op("audit", { summary: "Audit the coverage on fresh labelled examples", params: profileParam, request: auditRequestSchema, responses: { 200: ["The audit", auditResultSchema], 404: notFound } }),
      },
      [`${profile}/audits`]: {
        get: op("listAudits", { summary: "The profile's audits", params: profileParam, responses: { 200: ["The audits", z.looseObject({ audits: z.array(auditResultSchema) })], 404: notFound } }),
      },
      [`${profile}/monitors`]: {
        post: op("createMonitor", { summary: "Start an e-process monitor", params: profileParam, request: createMonitorRequestSchema, responses: { 201: ["The monitor", monitorSchema], 404: notFound } }),
        get: op("listMonitors", { summary: "The profile's monitors", params: profileParam, responses: { 200: ["The monitors", monitorListSchema], 404: notFound } }),
      },
      [`${profile}/monitors/{id}/alerts`]: {
        get: op("listAlerts", { summary: "A monitor's alerts", params: { ...profileParam, id: "The monitor's id" }, responses: { 200: ["The alerts", alertListSchema], 404: notFound } }),
      },
      [`${base}/backends`]: { get: op("listBackends", { summary: "The configured model backends and their levels", responses: { 200: ["The backends", z.looseObject({ backends: z.array(serviceBackendInfoSchema) })] } }) },
      [`${base}/human-queue`]: {
        get: op("listHumanQueue", {
          summary: "Items escalated to people", query: { profile: ["Only this profile's", { type: "string" }], kind: ["Only this kind", { type: "string" }] },
          responses: { 200: ["The items", humanQueueSchema] },
        }),
      },
      [`${base}/human-queue/{id}/resolve`]: {
        post: op("resolveHumanQueueItem", { summary: "Resolve an item (its label becomes an example)", params: { id: "The item's id" }, request: resolveHumanQueueItemRequestSchema, responses: { 200: ["The resolved item", resolvedHumanQueueItemSchema], 404: notFound } }),
      },
      [`${base}/health`]: { get: op("health", { summary: "Alive (never shed)", responses: { 200: ["ok", z.looseObject({ status: z.literal("ok"), profiles: z.number() })] } }) },
      [`${base}/openapi.json`]: { get: op("openapi", { summary: "This document", responses: { 200: ["The OpenAPI 3.1 document", z.looseObject({ openapi: z.string() })] } }) },
      "/metrics": { get: op("metrics", metricsText) },
    },
  };
}

/** The mail service (`calibkit mail-serve`): every answer is the envelope `{success, code, msg, data}`. */
export function mailServiceOpenApi(): Json {
  const envelope = (data: z.ZodType) => mailEnvelopeSchema.extend({ data });
  const failure = envelope(z.union([z.null(), z.looseObject({ errors: z.array(z.looseObject({ field: z.string(), message: z.string() })) })]));
  const errors: Record<number, [string, z.ZodType]> = {
    401: ["Missing or wrong X-API-Key", failure],
    404: ["No such endpoint or send", failure],
    405: ["A method the path does not take", failure],
    500: ["The send could not be committed: it was not accepted", failure],
    503: ["Shutting down, or the store is away; see retry-after", failure],
  };
  const withBody: Record<number, [string, z.ZodType]> = {
    ...errors,
    400: ["Invalid request (`data.errors` names each field)", failure],
    409: ["Idempotency-Key reused with another body", failure],
    413: ["Body too large", failure],
    415: ["Not Content-Type: application/json", failure],
    422: ["The template is unknown or lacks attributes (`data.errors` names each)", failure],
  };
  const security = [{ apiKey: [] }];
  const op = (id: string, spec: OperationSpec) => operation(id, spec, spec.request ? withBody : errors, security);
  return {
    openapi: "3.1.0",
    info: { title: "calibkit Mail Sending Service", version: "1", description: "Send and batch-send templated mail with a durable queue, and read a send's lifecycle. docs/mail.md." },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    servers: [{ url: "http://127.0.0.1:8025", description: "calibkit mail-serve on loopback (--port)" }],
    components: { securitySchemes: { apiKey: { type: "apiKey", in: "header", name: "X-API-Key", description: "A configured key; none needed on a loopback service without keys" } } },
    paths: {
      [`${MAIL_API_BASE}/send`]: { post: op("send", { summary: "Send one message", request: sendRequestSchema, responses: { 200: ["Accepted (idempotent_replay on a replayed Idempotency-Key)", envelope(sendResultSchema)] } }) },
      [`${MAIL_API_BASE}/batch_send`]: { post: op("batchSend", { summary: "Send one message to each recipient", request: batchSendRequestSchema, responses: { 200: ["Accepted", envelope(batchSendResultSchema)] } }) },
      [`${MAIL_API_BASE}/status/{api_log_id}`]: { get: op("sendStatus", { summary: "A send's lifecycle (extension)", params: { api_log_id: "The send's api_log_id" }, responses: { 200: ["Its states", envelope(sendStatusSchema)] } }) },
      [`${MAIL_API_BASE}/openapi.json`]: { get: op("openapi", { summary: "This document", responses: { 200: ["The OpenAPI 3.1 document", z.looseObject({ openapi: z.string() })] } }) },
      "/healthz": { get: { ...op("health", { summary: "Alive", responses: { 200: ["ok", envelope(z.looseObject({ status: z.literal("ok") }))] } }), security: [] } },
      "/metrics": { get: op("metrics", metricsText) },
    },
  };
}
