// `calibkit serve-model`: a local GGUF model as an OpenAI-compatible server (completions, chat completions,
// streaming, models). The first stdout line is `listening <url>` so scripts and tests can find the bound port.
import { basename } from "node:path";
import type { ChatTemplateSetting, ChatTurn } from "../../adapters/index.js";
import { intOption, parseCommand, untilSignal, usage } from "../args.js";

export const summary = "Serve a local GGUF model as an OpenAI-compatible server (completions, chat, streaming)";

const HELP = `usage: calibkit serve-model --model PATH [--host 127.0.0.1] [--port N] [--threads N]
                           [--parallel N] [--queue N] [--ctx-size N] [--chat-template FILE] [--api-key KEY]

  --model PATH          a .gguf file (a bare name resolves in $CALIBKIT_MODELS_DIR)
  --host HOST           address to bind (default 127.0.0.1, loopback only; any other needs an API key)
  --port N              port (default 0: a free one; the first stdout line names it)
  --threads N           CPU threads (default chosen from the model size)
  --parallel N          slots: requests generated at once, batched on one context (default 4)
  --queue N             requests waiting for a slot before 429 (default 64)
  --ctx-size N          tokens per slot, prompt and completion together (default min(2048, the model's))
  --chat-template FILE  a Jinja chat template for /v1/chat/completions; \`auto\` (default): the model's own,
                        or node-llama-cpp's format for its name when it has none; \`none\`: turns joined by blank lines
  --api-key KEY         require \`Authorization: Bearer KEY\` on /v1 (or set CALIBKIT_SERVE_MODEL_API_KEY,
                        which keeps the key out of the process list)
`;

export async function run(argv: string[]): Promise<number> {
  const parsed = parseCommand("serve-model", argv, {
    model: { type: "string" }, host: { type: "string", default: "127.0.0.1" }, port: { type: "string", default: "0" },
    threads: { type: "string" }, parallel: { type: "string" }, queue: { type: "string" }, "ctx-size": { type: "string" },
    "chat-template": { type: "string" }, "api-key": { type: "string" },
  }, HELP);
  if (typeof parsed === "number") return parsed;
  const { values } = parsed;
  if (!values.model) return usage("serve-model", "--model is required", HELP);
  const apiKey = values["api-key"] ?? process.env.CALIBKIT_SERVE_MODEL_API_KEY;
  let port: number, parallel: number, queue: number;
  let threads: number | undefined, contextSize: number | undefined;
  try {
    port = intOption("port", values.port, 0, 0, 65535);
    threads = intOption("threads", values.threads, undefined, 1, 1024);
    parallel = intOption("parallel", values.parallel, 4, 1, 256);
    queue = intOption("queue", values.queue, 64, 0, 100_000);
    contextSize = intOption("ctx-size", values["ctx-size"], undefined, 16, 1 << 20);
  } catch (err) {
    return usage("serve-model", err instanceof Error ? err.message : String(err));
  }
  // Loaded here, not at the top: `calibkit --help` lists this command without loading llama.cpp.
  const { createLlamaCppAdapter, isLoopbackHost, readChatTemplateFile, resolveModelPath, startModelServer } = await import("../../adapters/index.js");
  if (!apiKey && !isLoopbackHost(values.host)) {
    return usage("serve-model", `--host ${values.host} is beyond loopback: give an API key (--api-key or CALIBKIT_SERVE_MODEL_API_KEY)`);
  }
  const adapter = await createLlamaCppAdapter({
    modelPath: resolveModelPath(values.model), threads, embeddings: false, parallelSequences: parallel, contextSize,
  });
  const template = values["chat-template"];
  const setting: ChatTemplateSetting = template === undefined || template === "auto" ? "auto" : template === "none" ? "none" : { file: template };
  const renderChat = (turns: ChatTurn[]) => adapter.chatPrompt(turns, setting);
  let chatTemplateName: string;
  try {
    // Rendered once now, so a template file that cannot be read or rendered stops the start, not a request.
    const probe = await renderChat([{ role: "user", content: "Hello" }]);
    chatTemplateName = typeof setting === "object" ? `file:${basename(setting.file)}`
      : setting === "none" ? "none" : probe.wrapperName === "JinjaTemplate" ? "metadata" : `wrapper:${probe.wrapperName}`;
  } catch (err) {
    await adapter.dispose();
    return usage("serve-model", err instanceof Error ? err.message : String(err));
  }
  if (chatTemplateName.startsWith("wrapper:")) {
    process.stderr.write(`calibkit serve-model: ${adapter.model} has no chat template in its metadata; chat completions use node-llama-cpp's ${chatTemplateName.slice("wrapper:".length)} format, chosen from its name and architecture (--chat-template FILE picks one)\n`);
  }
  // /tokenizer_info shows the template's Jinja source, so a client rendering chats itself (lm-eval) renders the same.
  const chatTemplateSource = typeof setting === "object" ? readChatTemplateFile(setting.file) : setting === "none" ? null : undefined;
  const server = await startModelServer({ adapter, renderChat, chatTemplateName, chatTemplateSource, host: values.host, port, apiKey, queue });
  process.stdout.write(`listening ${server.url}\n`);
  await untilSignal("calibkit serve-model");
  await server.close();
  await adapter.dispose();
  return 0;
}
