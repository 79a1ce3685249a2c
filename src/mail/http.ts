// The HTTP face of the mail service: routes, the X-API-Key check, body limits and the envelope of
// spec 2.3 on every answer (result in `data`). Statuses follow docs/mail.md; clients read the envelope.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { KeyRing } from "./auth.js";
import {
  bodyTooLarge, internal, malformedJson, methodNotAllowed, MailServiceError, notFound, unauthorized, unavailable, unsupportedMediaType,
} from "./errors.js";
import { StoreUnavailableError } from "../store/index.js";
import { mailServiceOpenApi } from "../api/index.js";
import type { MailMetrics } from "./metrics.js";
import type { MailQueue } from "./queue.js";

export const PREFIX = "/api/batch_mail/api";

let openapi: string | undefined;

export interface HttpOptions {
  queue: MailQueue;
  /** Undefined: no key is required (a loopback bind without configured keys). */
  keys: KeyRing | undefined;
  maxBodyBytes: number;
  /** Prometheus metrics, served at GET /metrics behind the same key; undefined: none. */
  metrics?: MailMetrics | undefined;
  log: (line: string) => void;
}

/** The route label of a path: the endpoint's pattern, never an api_log_id. */
function routeOf(path: string): string {
  if (path === "/healthz" || path === "/metrics" || path === `${PREFIX}/send` || path === `${PREFIX}/batch_send` || path === `${PREFIX}/openapi.json`) return path;
  if (path.startsWith(`${PREFIX}/status/`)) return `${PREFIX}/status/:api_log_id`;
  return "unmatched";
}

function sendEnvelope(res: ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

const ok = (res: ServerResponse, data: unknown) => sendEnvelope(res, 200, { success: true, code: 0, msg: "success", data });

function fail(res: ServerResponse, err: MailServiceError): void {
  const data = err.issues.length > 0 ? { errors: err.issues } : null;
  sendEnvelope(res, err.status ?? 500, { success: false, code: err.envelopeCode, msg: err.message, data });
}

async function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) throw bodyTooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw bodyTooLarge(limit);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") throw malformedJson("the body is empty");
  try {
    return JSON.parse(text);
  } catch (err) {
    throw malformedJson(err instanceof Error ? err.message : String(err));
  }
}

/** An Idempotency-Key names a send for good; printable ASCII, at most 200 characters. */
function idempotencyKeyOf(req: IncomingMessage): string | undefined {
  const raw = req.headers["idempotency-key"];
  if (raw === undefined) return undefined;
  const key = Array.isArray(raw) ? raw[0]! : raw;
  if (!/^[\x21-\x7e]{1,200}$/.test(key)) {
    throw new MailServiceError("invalidRequest", 400, "Idempotency-Key must be 1 to 200 printable ASCII characters without spaces");
  }
  return key;
}

async function route(req: IncomingMessage, res: ServerResponse, o: HttpOptions): Promise<void> {
  const path = new URL(req.url ?? "/", "http://localhost").pathname.replace(/\/+$/, "");
  if (path === "/healthz" && req.method === "GET") return ok(res, { status: "ok" });
  if (path === "/metrics" && req.method === "GET" && o.metrics) {
    if (o.keys) {
      const key = req.headers["x-api-key"];
      if (!o.keys.verify(Array.isArray(key) ? key[0] : key)) throw unauthorized();
    }
    const { contentType, text } = await o.metrics.scrape();
    res.writeHead(200, { "content-type": contentType, "content-length": Buffer.byteLength(text) });
    res.end(text);
    return;
  }
  if (!path.startsWith(PREFIX + "/")) throw notFound(`No endpoint ${path}; the mail endpoints live under ${PREFIX}/`);
  // Authentication before anything else about the request, so an unauthenticated caller learns nothing.
  if (o.keys) {
    const key = req.headers["x-api-key"];
    if (!o.keys.verify(Array.isArray(key) ? key[0] : key)) throw unauthorized();
  }
  const rest = path.slice(PREFIX.length + 1);
  if (rest === "openapi.json" && req.method === "GET") {
    // The document itself, not in the envelope: what OpenAPI tools read.
    openapi ??= JSON.stringify(mailServiceOpenApi());
    res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(openapi) });
    res.end(openapi);
    return;
  }
  if (rest === "send" || rest === "batch_send") {
    if (req.method !== "POST") throw methodNotAllowed(req.method ?? "?", path);
    const type = req.headers["content-type"];
    if (!type || !/^application\/json\s*(;|$)/i.test(type)) throw unsupportedMediaType(type);
    const idem = idempotencyKeyOf(req);
    const body = await readJson(req, o.maxBodyBytes);
    return ok(res, await o.queue.accept(rest === "send" ? "send" : "batch", body, idem));
  }
  const status = /^status\/([A-Za-z0-9]{1,64})$/.exec(rest);
  if (status) {
    if (req.method !== "GET") throw methodNotAllowed(req.method ?? "?", path);
    return ok(res, o.queue.status(status[1]!));
  }
  throw notFound(`No endpoint ${path}`);
}

export function createMailHttpServer(o: HttpOptions): Server {
  return createServer((req, res) => {
    if (o.metrics) {
      const started = performance.now();
      const metrics = o.metrics;
      res.once("finish", () => {
        const path = new URL(req.url ?? "/", "http://localhost").pathname.replace(/\/+$/, "");
        metrics.observe(routeOf(path), req.method ?? "GET", res.statusCode, (performance.now() - started) / 1000);
      });
    }
    route(req, res, o).catch((err: unknown) => {
      const e = err instanceof MailServiceError ? err
        : err instanceof StoreUnavailableError ? unavailable(err.message, err.retryAfter)
        : internal(err);
      if (e.status === 503 && (e as { retryAfter?: number }).retryAfter !== undefined) res.setHeader("retry-after", String((e as { retryAfter?: number }).retryAfter));
      if (!(err instanceof MailServiceError) && !(err instanceof StoreUnavailableError)) o.log(`mail: internal error: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
      if (res.headersSent) return void res.destroy();
      // A rejected body may still be arriving; close after answering rather than read it all.
      if (e.status === 413) res.setHeader("connection", "close");
      fail(res, e);
    });
  });
}
