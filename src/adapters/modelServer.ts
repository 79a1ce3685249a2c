// A local GGUF model behind an OpenAI-compatible completions endpoint (node:http, loopback by default), so
// cascades and other tools can use it as a backend and the OpenAI-compatible adapter has a real server.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import type { LlamaCppModelAdapter } from "./llamaCppAdapter.js";
import type { CompletionToken } from "./llamaCompletion.js";
import { completionRequestSchema, type CompletionLogprobs } from "../api/index.js";

export interface ModelServerOptions {
  adapter: LlamaCppModelAdapter;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** Largest request body in bytes. Default 1 MiB. */
  maxBodyBytes?: number;
}

export interface ModelServer extends AsyncDisposable {
  /** Base URL without the /v1 suffix, e.g. http://127.0.0.1:41233. */
  readonly url: string;
  close(): Promise<void>;
}

class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > limit) reject(new HttpError(413, `request body exceeds ${limit} bytes`));
      else chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

function logprobsOf(tokens: CompletionToken[], startOffset: number): CompletionLogprobs {
  const offsets: number[] = [];
  let at = startOffset;
  for (const t of tokens) {
    offsets.push(at);
    at += t.text.length;
  }
  return {
    tokens: tokens.map((t) => t.text),
    token_logprobs: tokens.map((t) => t.logprob),
    top_logprobs: tokens.map((t) => t.top),
    text_offset: offsets,
  };
}

async function completions(adapter: LlamaCppModelAdapter, raw: unknown, signal: AbortSignal): Promise<unknown> {
  const parsed = completionRequestSchema.safeParse(raw);
  if (!parsed.success) {
    throw new HttpError(400, z.prettifyError(parsed.error).replace(/\n/g, " "));
  }
  const body = parsed.data;
  const prompt = Array.isArray(body.prompt) ? body.prompt[0]! : body.prompt;
  const stop = body.stop == null ? [] : Array.isArray(body.stop) ? body.stop : [body.stop];
  const wantLogprobs = body.logprobs != null;
  const promptScoring = body.echo || body.prompt_logprobs != null;
  const choices = [];
  let promptCount = 0;
  let completionCount = 0;
  for (let i = 0; i < body.n; i++) {
    const result = await adapter.complete(prompt, {
      maxTokens: body.max_tokens, temperature: body.temperature, seed: (body.seed ?? 0) + i,
      topLogprobs: body.logprobs ?? body.prompt_logprobs ?? 0, echo: promptScoring, stop, signal,
    });
    promptCount = result.promptTokens.length;
    completionCount += result.tokens.length;
    const shown = body.echo ? [...result.promptTokens, ...result.tokens] : result.tokens;
    choices.push({
      index: i,
      text: body.echo ? prompt + result.text : result.text,
      finish_reason: result.finishReason,
      logprobs: wantLogprobs ? logprobsOf(shown, 0) : null,
      ...(body.prompt_logprobs != null
        ? { prompt_logprobs: [null, ...result.promptTokens.slice(1).map((t) => ({ [t.text]: t.logprob }))] }
        : {}),
    });
  }
  return {
    id: `cmpl-${Date.now().toString(36)}`,
    object: "text_completion",
    created: Math.floor(Date.now() / 1000),
    model: adapter.model,
    choices,
    usage: { prompt_tokens: promptCount, completion_tokens: completionCount, total_tokens: promptCount + completionCount },
  };
}

export async function startModelServer(options: ModelServerOptions): Promise<ModelServer> {
  const { adapter, host = "127.0.0.1", port = 0, maxBodyBytes = 1024 * 1024 } = options;
  const server = createServer((req, res) => {
    const controller = new AbortController();
    res.on("close", () => { if (!res.writableFinished) controller.abort(); });
    void (async () => {
      try {
        const path = (req.url ?? "/").split("?")[0];
        if (req.method === "GET" && path === "/v1/models") {
          send(res, 200, { object: "list", data: [{ id: adapter.model, object: "model", owned_by: "calibkit", fingerprint: adapter.fingerprint }] });
        } else if (req.method === "POST" && path === "/v1/completions") {
          let raw: unknown;
          try {
            raw = JSON.parse(await readBody(req, maxBodyBytes));
          } catch (err) {
            throw err instanceof HttpError ? err : new HttpError(400, "body is not valid JSON");
          }
          send(res, 200, await completions(adapter, raw, controller.signal));
        } else {
          throw new HttpError(404, `no route ${req.method} ${path}`);
        }
      } catch (err) {
        const status = err instanceof HttpError ? err.status : 500;
        if (!res.headersSent) send(res, status, { error: { message: err instanceof Error ? err.message : String(err), type: status < 500 ? "invalid_request_error" : "server_error" } });
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
