// `calibkit serve-model`: a local GGUF model as an OpenAI-compatible completions endpoint with logprobs.
// The first stdout line is `listening <url>` so scripts and tests can find the bound port.
import { intOption, parseCommand, untilSignal, usage } from "../args.js";

export const summary = "Serve a local GGUF model as an OpenAI-compatible /v1/completions endpoint";

const HELP = `usage: calibkit serve-model --model PATH [--host 127.0.0.1] [--port N] [--threads N]

  --model PATH    a .gguf file (a bare name resolves in $CALIBKIT_MODELS_DIR)
  --host HOST     address to bind (default 127.0.0.1, loopback only)
  --port N        port (default 0: a free one; the first stdout line names it)
  --threads N     CPU threads (default chosen from the model size)
`;

export async function run(argv: string[]): Promise<number> {
  const parsed = parseCommand("serve-model", argv, {
    model: { type: "string" }, host: { type: "string", default: "127.0.0.1" }, port: { type: "string", default: "0" },
    threads: { type: "string" },
  }, HELP);
  if (typeof parsed === "number") return parsed;
  const { values } = parsed;
  if (!values.model) return usage("serve-model", "--model is required", HELP);
  let port: number;
  let threads: number | undefined;
  try {
    port = intOption("port", values.port, 0, 0, 65535);
    threads = intOption("threads", values.threads, undefined, 1, 1024);
  } catch (err) {
    return usage("serve-model", err instanceof Error ? err.message : String(err));
  }
  // Loaded here, not at the top: `calibkit --help` lists this command without loading llama.cpp.
  const { createLlamaCppAdapter, resolveModelPath, startModelServer } = await import("../../adapters/index.js");
  const adapter = await createLlamaCppAdapter({ modelPath: resolveModelPath(values.model), threads, embeddings: false });
  const server = await startModelServer({ adapter, host: values.host, port });
  process.stdout.write(`listening ${server.url}\n`);
  await untilSignal("calibkit serve-model");
  await server.close();
  await adapter.dispose();
  return 0;
}
