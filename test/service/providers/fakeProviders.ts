// A loopback fake (127.0.0.1) speaking the documented wire formats of the hosted providers: OpenAI chat
// completions (also Azure's /openai/deployments/{d}/chat/completions and OpenRouter's), and Anthropic's
// /v1/messages. Each backend lives under its own path prefix; a test scripts faults per prefix and reads
// back every request (path, headers, body, time).
import { createServer, type IncomingMessage, type Server } from "node:http";

export interface Seen { prefix: string; path: string; headers: IncomingMessage["headers"]; body: any; at: number }
export interface Fault { status: number; times: number; headers?: Record<string, string>; body?: string }

export interface FakeProviders {
  url: string;
  seen: Seen[];
  faults: Map<string, Fault>;
  /** Prefixes whose OpenAI answers carry no logprobs. */
  noLogprobs: Set<string>;
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

export async function startFakeProviders(): Promise<FakeProviders> {
  const seen: Seen[] = [];
  const faults = new Map<string, Fault>();
  const noLogprobs = new Set<string>();
  const server: Server = createServer((req, res) => {
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
        res.writeHead(fault.status, { "content-type": "application/json", ...fault.headers });
        res.end(fault.body ?? JSON.stringify({ error: { type: "error", message: `fake ${fault.status}` } }));
        return;
      }
      let answer: unknown;
      if (/\/chat\/completions(\?|$)/.test(path)) answer = openAIAnswer(body, !noLogprobs.has(prefix));
      else if (/\/v1\/messages(\?|$)/.test(path)) answer = anthropicAnswer(body);
      else { res.writeHead(404).end(); return; }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`, seen, faults, noLogprobs,
    close: () => new Promise((ok) => { server.closeAllConnections(); server.close(() => ok()); }),
  };
}
