// The HTTP layer: request id, auth, rate limit, shedding, routing, content type, bounded body, JSON parse,
// then the handler; every outcome leaves as a JSON body with `x-request-id`. Handlers never see raw HTTP.
import type { IncomingMessage, ServerResponse } from "node:http";
import { randomUUID } from "node:crypto";
import type { Authenticator } from "../auth.js";
import { badJson, methodNotAllowed, notFound, payloadTooLarge, unsupportedMediaType } from "../errors.js";
import type { LoadShedder, RateLimiter } from "../rateLimit.js";
import { mapError } from "./errorMapping.js";
import type { Router, ServiceRequest } from "./router.js";

export const BASE_PATH = "/api/v1";

export interface HttpLayerOptions {
  router: Router;
  auth: Authenticator;
  rateLimiter: RateLimiter;
  shedder: LoadShedder;
  maxBodyBytes: number;
  log: (line: string) => void;
}

const REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === "string" && REQUEST_ID.test(header) ? header : `req_${randomUUID()}`;
}

function send(res: ServerResponse, status: number, id: string, body: unknown, extra?: Record<string, string>): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(payload),
    "x-request-id": id,
    ...extra,
  });
  res.end(payload);
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > limit) {
      reject(payloadTooLarge(limit));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on("data", (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        reject(payloadTooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (!failed) resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    });
    req.on("error", (err) => {
      if (!failed) reject(err);
      failed = true;
    });
  });
}

/** A request target that the URL parser would return unchanged: a path of plain characters, no dot segment. */
const PLAIN_PATH = /^\/(?!\/)(?:[A-Za-z0-9_~-]|\.(?<!\/\.)|\/)*$/;

/** Path and query of a request target; `new URL` (which normalises) unless the target is a plain path. */
function parseTarget(target: string): { pathname: string; query: URLSearchParams } {
  if (PLAIN_PATH.test(target)) return { pathname: target, query: new URLSearchParams() };
  const url = new URL(target, "http://service");
  return { pathname: url.pathname, query: url.searchParams };
}

function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  const type = value.split(";")[0]!.trim().toLowerCase();
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}

function parseJson(raw: Buffer): unknown {
  if (raw.length === 0) throw badJson("The request body is empty; send a JSON object");
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch (err) {
    throw badJson(`The request body is not valid JSON: ${(err as Error).message}`);
  }
}

export function createHttpHandler(options: HttpLayerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const { router, auth, rateLimiter, shedder, maxBodyBytes, log } = options;

  return (req, res) => {
    const id = requestIdOf(req.headers["x-request-id"]);
    let admitted = false;
    const run = async () => {
      const principal = auth.authenticate(req.headers.authorization);
      rateLimiter.take(principal);
      shedder.enter();
      admitted = true;
      const { pathname, query } = parseTarget(req.url ?? "/");
      const method = req.method ?? "GET";
      if (!pathname.startsWith(`${BASE_PATH}/`)) throw notFound(`No endpoint at ${pathname}; the API lives under ${BASE_PATH}`);
      const path = pathname.slice(BASE_PATH.length);
      const match = router.match(method, path);
      if (match.kind === "none") throw notFound(`No endpoint ${method} ${BASE_PATH}${path}`);
      if (match.kind === "wrong_method") throw methodNotAllowed(method, `${BASE_PATH}${path} (allowed: ${match.allowed.join(", ")})`);
      let body: unknown;
      let rawBody: Buffer | undefined;
      if (method === "POST" || method === "PUT" || method === "PATCH") {
        const type = req.headers["content-type"];
        if (!isJsonContentType(type)) throw unsupportedMediaType(type);
        rawBody = await readBody(req, maxBodyBytes);
        body = parseJson(rawBody);
      }
      const request: ServiceRequest = { id, method, path, query, headers: req.headers, body, rawBody, principal, params: match.params };
      const response = await match.handler(request);
      const out = response.body && typeof response.body === "object" && !Array.isArray(response.body)
        ? { ...(response.body as object), request_id: id }
        : response.body;
      send(res, response.status, id, out);
    };
    run()
      .catch((err: unknown) => {
        const mapped = mapError(err);
        if (mapped.status >= 500 && mapped.status !== 502 && mapped.status !== 529) {
          log(`${id} ${req.method} ${req.url}: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
        }
        const headers: Record<string, string> = {};
        if (mapped.retryAfter !== undefined) headers["retry-after"] = String(mapped.retryAfter);
        // An unread (or oversized) body cannot be skipped reliably on a kept-alive connection: close it.
        if (mapped.status === 413) headers.connection = "close";
        if (!req.complete) req.resume();
        if (!res.headersSent) send(res, mapped.status, id, { ...mapped.body, request_id: id }, headers);
        else res.destroy();
      })
      .finally(() => {
        if (admitted) shedder.leave();
      });
  };
}
