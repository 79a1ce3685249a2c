// `calibkit evidence`: runs a local model over an evaluate request and prints the client_evidence request.
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { ACCESS_HINTS, type AccessHint } from "../../api/index.js";
import { openAdapter } from "../../adapters/index.js";
import { buildEvaluateRequest } from "../../evidence/index.js";

export const summary = "Compute client evidence with a local model and print the client_evidence evaluate request";

const HELP = `usage: calibkit evidence --model PATH --request FILE [--access-hint H] [--name NAME] [--samples N] [--seed N]

  --model PATH        .gguf file, ONNX model folder or http(s) URL of an OpenAI-compatible server
  --request FILE      evaluate request JSON (its backend is the local model; "-" reads stdin)
  --access-hint H     ${ACCESS_HINTS.join(" | ")} (default: the request backend's access_hint, else auto)
  --name NAME         backend name in the output (default <provider>:<model>)
  --samples N         samples per query at L0 and per claim query (default 10)
  --seed N            sampler seed (default 0)
`;

async function readInput(file: string): Promise<string> {
  if (file !== "-") return readFile(file, "utf8");
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function fail(message: string): number {
  process.stderr.write(`calibkit evidence: ${message}\n`);
  return 2;
}

export async function run(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv, strict: true, allowPositionals: false,
      options: {
        model: { type: "string" }, request: { type: "string" }, "access-hint": { type: "string" }, name: { type: "string" },
        samples: { type: "string" }, seed: { type: "string" }, help: { type: "boolean", short: "h" },
      },
    }));
  } catch (err) {
    return fail(`${err instanceof Error ? err.message : String(err)}\n${HELP}`);
  }
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (!values.model) return fail(`--model is required\n${HELP}`);
  if (!values.request) return fail(`--request is required\n${HELP}`);
  const hint = values["access-hint"];
  if (hint !== undefined && !(ACCESS_HINTS as readonly string[]).includes(hint)) {
    return fail(`--access-hint must be one of ${ACCESS_HINTS.join(", ")}, not "${hint}"`);
  }
  const samples = values.samples === undefined ? undefined : Number(values.samples);
  if (samples !== undefined && (!Number.isInteger(samples) || samples < 1)) return fail(`--samples must be a positive integer, not "${values.samples}"`);
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  if (seed !== undefined && !Number.isInteger(seed)) return fail(`--seed must be an integer, not "${values.seed}"`);

  let raw: { context?: unknown; queries?: unknown; backend?: { access_hint?: unknown } };
  try {
    raw = JSON.parse(await readInput(values.request)) as typeof raw;
  } catch (err) {
    return fail(`cannot read ${values.request} as JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (typeof raw?.queries !== "object" || raw.queries === null) return fail(`${values.request} has no "queries" object`);
  const accessHint = (hint ?? (typeof raw.backend?.access_hint === "string" ? raw.backend.access_hint : "auto")) as AccessHint;

  const adapter = await openAdapter(values.model);
  try {
    const request = await buildEvaluateRequest({
      context: raw.context, queries: raw.queries as Record<string, unknown>, adapter, accessHint,
      ...(values.name ? { name: values.name } : {}), ...(samples ? { samples } : {}), ...(seed !== undefined ? { seed } : {}),
    });
    process.stdout.write(JSON.stringify(request, null, 2) + "\n");
    return 0;
  } catch (err) {
    const code = err instanceof Error && "code" in err ? ` [${String((err as { code: unknown }).code)}]` : "";
    process.stderr.write(`calibkit evidence${code}: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    await adapter.dispose();
  }
}
