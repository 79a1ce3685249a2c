// `calibkit serve-model`: a local GGUF model as an OpenAI-compatible completions endpoint with logprobs.
// The first stdout line is `listening <url>` so scripts and tests can find the bound port.
import { parseArgs } from "node:util";
import { createLlamaCppAdapter, resolveModelPath, startModelServer } from "../../adapters/index.js";

export const summary = "Serve a local GGUF model as an OpenAI-compatible /v1/completions endpoint";

const HELP = `usage: calibkit serve-model --model PATH [--host 127.0.0.1] [--port N] [--threads N]

  --model PATH    a .gguf file (a bare name resolves in $CALIBKIT_MODELS_DIR)
  --host HOST     address to bind (default 127.0.0.1, loopback only)
  --port N        port (default 0: a free one; the first stdout line names it)
  --threads N     CPU threads (default chosen from the model size)
`;

export async function run(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv, strict: true, allowPositionals: false,
      options: {
        model: { type: "string" }, host: { type: "string", default: "127.0.0.1" }, port: { type: "string", default: "0" },
        threads: { type: "string" }, help: { type: "boolean", short: "h" },
      },
    }));
  } catch (err) {
    process.stderr.write(`calibkit serve-model: ${err instanceof Error ? err.message : String(err)}\n${HELP}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (!values.model) {
    process.stderr.write(`calibkit serve-model: --model is required\n${HELP}`);
    return 2;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`calibkit serve-model: --port must be an integer from 0 to 65535, not "${values.port}"\n`);
    return 2;
  }
  const threads = values.threads === undefined ? undefined : Number(values.threads);
  if (threads !== undefined && (!Number.isInteger(threads) || threads < 1)) {
    process.stderr.write(`calibkit serve-model: --threads must be a positive integer, not "${values.threads}"\n`);
    return 2;
  }
  const adapter = await createLlamaCppAdapter({ modelPath: resolveModelPath(values.model), threads, embeddings: false });
  const server = await startModelServer({ adapter, host: values.host, port });
  process.stdout.write(`listening ${server.url}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  await server.close();
  await adapter.dispose();
  return 0;
}
