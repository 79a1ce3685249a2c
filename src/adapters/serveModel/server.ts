// A local GGUF model behind OpenAI-compatible endpoints (node:http, loopback by default), so that OpenAI's
// SDKs, cascades and evaluation tools can use it: /v1/models, /v1/completions, /v1/chat/completions, vLLM's
// /tokenize, /detokenize and /tokenizer_info, and /health. Requests run at once on the model's slots up to a queue bound, then get 429 (docs/serve-model.md).
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { isIP, type AddressInfo } from "node:net";
import { openAIErrorBody, type ServedModel, type ServeModelHealth } from "../../api/index.js";
import type { LlamaCppModelAdapter } from "../llamaCppAdapter.js";
import { serveApplyTemplate, serveChat, type ChatRenderer } from "./chat.js";
import { serveCompletions } from "./completions.js";
import { ServeModelError } from "./errors.js";
import { serveDetokenize, serveTokenize, tokenizerInfo } from "./tokenizer.js";
import { METRICS_PATH, ServeModelMetrics } from "./metrics.js";

export interface ModelServerOptions {
  adapter: LlamaCppModelAdapter;
  /** Renders chat messages; without one, /v1/chat/completions answers 400 `chat_template_missing`. */
  renderChat?: ChatRenderer;
  /** The chat template's source as /v1/models reports it (`metadata`, a file name); null without one. */
  chatTemplateName?: string | null;
  /** The chat template's Jinja source for /tokenizer_info; default the model's own, null for none. */
  chatTemplateSource?: string | null;
  /** Default 127.0.0.1. Any other address needs `apiKey`. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** Required as `Authorization: Bearer <key>` on every route but /health when given. */
  apiKey?: string;
  /** Requests waiting for a slot before more are refused with 429. Default 64. */
  queue?: number;
  /** Largest request body in bytes. Default 1 MiB. */
  maxBodyBytes?: number;
}

export interface ModelServer extends AsyncDisposable {
  /** Base URL without the /v1 suffix, e.g. http://127.0.0.1:41233. */
  readonly url: string;
  close(): Promise<void>;
}

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (h === "localhost" || h === "::1") return true;
  if (isIP(h) === 4) return h.startsWith("127.");
  return h.startsWith("::ffff:127.");
}

const digest = (key: string): Buffer => createHash("sha256").update(key, "utf8").digest();

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > limit) reject(new ServeModelError(413, `The request body exceeds ${limit} bytes`, { code: "request_too_large" }));
      else chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

async function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  const text = await readBody(req, limit);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ServeModelError(400, "The body is not valid JSON", { code: "invalid_json" });
  }
}

/** A malformed escape in a path names no model; it must not become a 500. */
function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

export async function startModelServer(options: ModelServerOptions): Promise<ModelServer> {
  const { adapter, renderChat, host = "127.0.0.1", port = 0, maxBodyBytes = 1024 * 1024, queue = 64 } = options;
  if (!options.apiKey && !isLoopbackHost(host)) {
    throw new ServeModelError(400, `serve-model binds ${host}, beyond loopback: give it an API key (--api-key or CALIBKIT_SERVE_MODEL_API_KEY)`, { param: "host" });
  }
  const keyDigest = options.apiKey ? digest(options.apiKey) : undefined;
  let inFlight = 0;
  let completionTokens = 0;
  const metrics = new ServeModelMetrics({ slots: () => ({ total: adapter.slots, busy: adapter.slotUse().busy }), inFlight: () => inFlight });
  const served: ServedModel = {
    id: adapter.model, object: "model", created: Math.floor(Date.now() / 1000), owned_by: "calibkit", context_length: adapter.contextSize,
    max_model_len: adapter.contextSize, fingerprint: adapter.fingerprint, chat_template: options.chatTemplateName ?? null,
  };

  const authorized = (req: IncomingMessage): boolean => {
    if (!keyDigest) return true;
    const presented = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "")?.[1];
    // Digests have one length whatever the key's, so timingSafeEqual never leaks the key's length either.
    return presented !== undefined && timingSafeEqual(digest(presented), keyDigest);
  };

  const generate = async (req: IncomingMessage, res: ServerResponse, signal: AbortSignal, chat: boolean): Promise<void> => {
    if (inFlight >= adapter.slots + queue) {
      throw new ServeModelError(429, `All ${adapter.slots} slots are busy and ${queue} requests are waiting; retry shortly`, { code: "rate_limit_exceeded", type: "requests" });
    }
    inFlight++;
    const tally = { tokens: 0 };
    const started = performance.now();
    try {
      const raw = await readJson(req, maxBodyBytes);
      const answer = chat ? await serveChat(adapter, renderChat, raw, signal, res, tally) : await serveCompletions(adapter, raw, signal, res, tally);
      if (answer !== undefined) send(res, 200, answer);
    } finally {
      inFlight--;
      completionTokens += tally.tokens;
      metrics.generated(tally.tokens, (performance.now() - started) / 1000);
    }
  };

  const server = createServer((req, res) => {
    const controller = new AbortController();
    res.on("close", () => { if (!res.writableFinished) controller.abort(); });
    const started = performance.now();
    res.once("finish", () => metrics.observe((req.url ?? "/").split("?")[0]!, req.method ?? "GET", res.statusCode, (performance.now() - started) / 1000));
    void (async () => {
      try {
        const path = (req.url ?? "/").split("?")[0]!;
        if (req.method === "GET" && path === "/health") {
          const health: ServeModelHealth = {
            status: "ok", slots: { total: adapter.slots, busy: adapter.slotUse().busy }, in_flight: inFlight,
            queue_limit: queue, completion_tokens_total: completionTokens,
          };
          return send(res, 200, health);
        }
        if (!authorized(req)) {
          throw new ServeModelError(401, "Incorrect or missing API key: send `Authorization: Bearer <key>`", { code: "invalid_api_key" });
        }
        if (req.method === "GET" && path === METRICS_PATH) {
          const { contentType, text } = await metrics.scrape();
          res.writeHead(200, { "content-type": contentType, "content-length": Buffer.byteLength(text) });
          return void res.end(text);
        }
        if (req.method === "GET" && path === "/v1/models") return send(res, 200, { object: "list", data: [served] });
        if (req.method === "GET" && path.startsWith("/v1/models/")) {
          const id = safeDecode(path.slice("/v1/models/".length));
          if (id === adapter.model) return send(res, 200, served);
          throw new ServeModelError(404, `The model \`${id}\` does not exist; this server serves \`${adapter.model}\``, { param: "model", code: "model_not_found" });
        }
        // vLLM's tokenizer endpoints, at the root as vLLM serves them (lm-eval's remote tokenizer calls them there).
        if (req.method === "GET" && path === "/tokenizer_info") return send(res, 200, tokenizerInfo(adapter, options.chatTemplateSource));
        if (req.method === "POST" && path === "/tokenize") return send(res, 200, serveTokenize(adapter, await readJson(req, maxBodyBytes)));
        if (req.method === "POST" && path === "/detokenize") return send(res, 200, serveDetokenize(adapter, await readJson(req, maxBodyBytes)));
        if (req.method === "POST" && path === "/apply-template") {
          return send(res, 200, await serveApplyTemplate(renderChat, await readJson(req, maxBodyBytes)));
        }
        if (req.method === "POST" && (path === "/v1/completions" || path === "/v1/chat/completions")) {
          return await generate(req, res, controller.signal, path === "/v1/chat/completions");
        }
        throw new ServeModelError(404, `No route ${req.method} ${path}`, { code: "not_found" });
      } catch (err) {
        if (controller.signal.aborted) return;
        const known = err instanceof ServeModelError ? err : undefined;
        const status = known?.status ?? 500;
        const message = err instanceof Error ? err.message : String(err);
        if (res.headersSent) {
          // Mid-stream: the SDKs raise an `error` event; then the stream ends.
          if (!res.writableEnded) res.end(`data: ${JSON.stringify(openAIErrorBody(message, known?.type ?? "server_error", known?.field ?? null, known?.openaiCode ?? null))}\n\n`);
          return;
        }
        send(res, status, openAIErrorBody(message, known?.type ?? "server_error", known?.field ?? null, known?.openaiCode ?? null),
          status === 429 ? { "retry-after": "1" } : {});
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${shownHost}:${address.port}`;
  const close = () => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return { url, close, [Symbol.asyncDispose]: close };
}
