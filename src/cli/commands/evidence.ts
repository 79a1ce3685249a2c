// `calibkit evidence`: runs a local model over an evaluate request and prints the client_evidence request.
import { readFile } from "node:fs/promises";
import { intOption, parseCommand, usage, UsageError } from "../args.js";
import { parsePromptFlags, PROMPT_FLAG_OPTIONS, PROMPT_USAGE, type PromptFlags } from "../promptFlags.js";
import { ACCESS_HINTS, type AccessHint } from "../../api/index.js";

export const summary = "Compute client evidence with a local model and print the client_evidence evaluate request";

const HELP = `usage: calibkit evidence --model PATH --request FILE [--access-hint H] [--name NAME] [--samples N] [--seed N]
                         [--format F] [--num-fewshot K --fewshot FILE] [--chat-template T] [--system S] [--normalize N]

  --model PATH        .gguf file, ONNX model folder or http(s) URL of an OpenAI-compatible server
  --request FILE      evaluate request JSON (its backend is the local model; "-" reads stdin)
  --access-hint H     ${ACCESS_HINTS.join(" | ")} (default: the request backend's access_hint, else auto)
  --name NAME         backend name in the output (default <provider>:<model>)
  --samples N         samples per query at L0 and per claim query (default 10)
  --seed N            sampler seed (default 0)
${PROMPT_USAGE}`;

async function readInput(file: string): Promise<string> {
  if (file !== "-") return readFile(file, "utf8");
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const fail = (message: string): number => usage("evidence", message);

export async function run(argv: string[]): Promise<number> {
  const parsed = parseCommand("evidence", argv, {
    model: { type: "string" }, request: { type: "string" }, "access-hint": { type: "string" }, name: { type: "string" },
    samples: { type: "string" }, seed: { type: "string" }, ...PROMPT_FLAG_OPTIONS,
  }, HELP);
  if (typeof parsed === "number") return parsed;
  const { values } = parsed;
  if (!values.model) return fail(`--model is required\n${HELP}`);
  if (!values.request) return fail(`--request is required\n${HELP}`);
  const hint = values["access-hint"];
  if (hint !== undefined && !(ACCESS_HINTS as readonly string[]).includes(hint)) {
    return fail(`--access-hint must be one of ${ACCESS_HINTS.join(", ")}, not "${hint}"`);
  }
  let samples: number | undefined;
  let seed: number | undefined;
  let flags: PromptFlags;
  try {
    samples = intOption("samples", values.samples, undefined, 1, 10_000);
    seed = intOption("seed", values.seed, undefined, 0, 2 ** 32 - 1);
    flags = parsePromptFlags(values, (flag, problem) => {
      throw new UsageError(`--${flag}: ${problem}`);
    });
  } catch (err) {
    return fail(err instanceof Error ? err.message : String(err));
  }

  let raw: { context?: unknown; queries?: unknown; backend?: { access_hint?: unknown } };
  try {
    raw = JSON.parse(await readInput(values.request)) as typeof raw;
  } catch (err) {
    return fail(`cannot read ${values.request} as JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (typeof raw?.queries !== "object" || raw.queries === null) return fail(`${values.request} has no "queries" object`);
  const accessHint = (hint ?? (typeof raw.backend?.access_hint === "string" ? raw.backend.access_hint : "auto")) as AccessHint;

  // Loaded here, not at the top: `calibkit --help` and usage errors answer without loading the model engines.
  const { openAdapter } = await import("../../adapters/index.js");
  const { buildEvaluateRequest, resolvePromptSettings } = await import("../../evidence/index.js");
  const { loadFewshot } = await import("../../run/index.js");
  const adapter = await openAdapter(values.model);
  try {
    const fewshot = await loadFewshot(flags.fewshot);
    const prompt = await resolvePromptSettings({ ...flags.settings, fewshot }, adapter);
    const request = await buildEvaluateRequest({
      context: raw.context, queries: raw.queries as Record<string, unknown>, adapter, accessHint, prompt,
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
