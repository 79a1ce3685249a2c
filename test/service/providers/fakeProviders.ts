// A loopback fake (127.0.0.1) speaking the documented wire formats of the hosted providers: OpenAI chat
// completions (also Azure's /openai/deployments/{d}/chat/completions and OpenRouter's), Anthropic's
// /v1/messages, Gemini's /v1beta/models/{m}:generateContent and Bedrock's /model/{id}/converse. Each
// backend lives under its own path prefix; a test scripts faults per prefix (status 0: accept the request
// and never answer) and reads back every request (path, headers, body, time).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createH2cServer, type Http2ServerRequest, type Http2ServerResponse, type Http2Session } from "node:http2";

export interface Seen { prefix: string; path: string; headers: IncomingMessage["headers"]; body: any; at: number }
export interface Fault { status: number; times: number; headers?: Record<string, string>; body?: string }

export interface FakeProviders {
  url: string;
  /** The same fake over cleartext HTTP/2 (Bedrock's SDK speaks HTTP/2 only). */
  h2url: string;
  seen: Seen[];
  faults: Map<string, Fault>;
  /** Prefixes whose OpenAI and Gemini answers carry no logprobs. */
  noLogprobs: Set<string>;
  /** Prefixes whose Gemini model refuses responseLogprobs with a 400, as Gemini does for models without them. */
  refuseLogprobs: Set<string>;
  close(): Promise<void>;
}

/** Top log-probabilities of the first output token: happy 0.7, sad 0.3. */
export const TOP = [{ token: "happy", logprob: Math.log(0.7) }, { token: " sad", logprob: Math.log(0.3) }];
export const USAGE = { prompt_tokens: 10, completion_tokens: 2 };

function openAIAnswer(body: any, logprobs: boolean) {
  const n = body.n ?? 1;
  return {
    id: "chatcmpl-1", object: "chat.completion", created: 1, model: body.model,
    choices: Array.from({ length: n }, (_, i) => ({
      index: i, finish_reason: "stop",
      message: { role: "assistant", content: i % 4 === 3 ? "sad" : "happy", refusal: null },
      logprobs: logprobs && body.logprobs ? { content: [{ token: "happy", logprob: TOP[0]!.logprob, bytes: null, top_logprobs: TOP.slice(0, body.top_logprobs).map((t) => ({ ...t, bytes: null })) }], refusal: null } : null,
    })),
    usage: { ...USAGE, total_tokens: USAGE.prompt_tokens + USAGE.completion_tokens },
  };
}

function anthropicAnswer(body: any) {
  return {
    id: "msg_1", type: "message", role: "assistant", model: body.model, stop_reason: "end_turn", stop_sequence: null,
    content: [{ type: "text", text: "happy" }],
    usage: { input_tokens: USAGE.prompt_tokens, output_tokens: USAGE.completion_tokens },
  };
}

/** generateContent: candidateCount candidates (every 4th sad), logprobsResult when asked and offered. */
function geminiAnswer(body: any, logprobs: boolean) {
  const g = body.generationConfig ?? {};
  const n = g.candidateCount ?? 1;
  return {
    candidates: Array.from({ length: n }, (_, i) => ({
      index: i, finishReason: "STOP",
      content: { role: "model", parts: [{ text: i % 4 === 3 ? "sad" : "happy" }] },
      ...(logprobs && g.responseLogprobs ? {
        avgLogprobs: TOP[0]!.logprob,
        logprobsResult: {
          topCandidates: [{ candidates: TOP.slice(0, g.logprobs).map((t, id) => ({ token: t.token, tokenId: id, logProbability: t.logprob })) }],
          chosenCandidates: [{ token: "happy", tokenId: 0, logProbability: TOP[0]!.logprob }],
        },
      } : {}),
    })),
    usageMetadata: { promptTokenCount: USAGE.prompt_tokens, candidatesTokenCount: USAGE.completion_tokens, totalTokenCount: USAGE.prompt_tokens + USAGE.completion_tokens },
    modelVersion: "gemini-fake",
  };
}

function bedrockAnswer() {
  return {
    output: { message: { role: "assistant", content: [{ text: "happy" }] } },
    stopReason: "end_turn",
    usage: { inputTokens: USAGE.prompt_tokens, outputTokens: USAGE.completion_tokens, totalTokens: USAGE.prompt_tokens + USAGE.completion_tokens },
    metrics: { latencyMs: 1 },
  };
}

const GEMINI_REFUSAL = { error: { code: 400, message: "Logprobs is not enabled for models/gemini-fake", status: "INVALID_ARGUMENT" } };

export async function startFakeProviders(): Promise<FakeProviders> {
  const seen: Seen[] = [];
  const faults = new Map<string, Fault>();
  const noLogprobs = new Set<string>();
  const refuseLogprobs = new Set<string>();
  const handle = (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) => {
    let raw = "";
    req.on("data", (d: Buffer) => { raw += d.toString(); });
    req.on("end", () => {
      const path = req.url ?? "/";
      const prefix = path.split("/")[1] ?? "";
      let body: any = {};
      try { body = JSON.parse(raw || "{}"); } catch { /* recorded as {} */ }
      seen.push({ prefix, path, headers: req.headers, body, at: Date.now() });
      const fault = faults.get(prefix);
      if (fault && fault.times > 0) {
        fault.times--;
        if (fault.status === 0) return;
        res.writeHead(fault.status, { "content-type": "application/json", ...fault.headers });
        res.end(fault.body ?? JSON.stringify({ error: { type: "error", message: `fake ${fault.status}` } }));
        return;
      }
      let answer: unknown;
      if (/\/chat\/completions(\?|$)/.test(path)) answer = openAIAnswer(body, !noLogprobs.has(prefix));
      else if (/\/v1\/messages(\?|$)/.test(path)) answer = anthropicAnswer(body);
      else if (/:generateContent(\?|$)/.test(path)) {
        if (refuseLogprobs.has(prefix) && body.generationConfig?.responseLogprobs) {
          res.writeHead(400, { "content-type": "application/json" });
          res.end(JSON.stringify(GEMINI_REFUSAL));
          return;
        }
        answer = geminiAnswer(body, !noLogprobs.has(prefix));
      } else if (/\/model\/[^/]+\/converse(\?|$)/.test(path)) answer = bedrockAnswer();
      else { res.writeHead(404); res.end(); return; }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(answer));
    });
  };
  const server = createServer(handle);
  const h2 = createH2cServer(handle);
  const sessions = new Set<Http2Session>();
  h2.on("session", (s) => { sessions.add(s); s.on("close", () => sessions.delete(s)); });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  await new Promise<void>((ok) => h2.listen(0, "127.0.0.1", ok));
  const port = (s: { address(): unknown }) => (s.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port(server)}`, h2url: `http://127.0.0.1:${port(h2)}`, seen, faults, noLogprobs, refuseLogprobs,
    close: async () => {
      for (const s of sessions) s.destroy();
      server.closeAllConnections();
      await Promise.all([new Promise((ok) => server.close(ok)), new Promise((ok) => h2.close(ok))]);
    },
  };
}
