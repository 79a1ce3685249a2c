// `calibkit prompts`: exactly what the model will be given for each dataset item, one JSON object per line
// (lm-evaluation-harness's write_out), so a user can check the prompts before spending model time on them.
import { loadDataset } from "../../datasets/index.js";
import { intOption, parseCommand, usage, UsageError } from "../args.js";
import { parsePromptFlags, PROMPT_FLAG_OPTIONS, PROMPT_USAGE, type PromptFlags } from "../promptFlags.js";
import { DATASET_USAGE, parseDatasetOptions } from "../run/datasetOptions.js";

export const summary = "Print the prompts and continuations a model would be given for a dataset (one JSON line each)";

const HELP = `usage: calibkit prompts --dataset FILE [--format F] [--num-fewshot K --fewshot FILE]
                        [--chat-template T] [--system S] [--model PATH] [--limit N]

Prints {"id", "prompt", "continuations", "label"} per item: the text the model is given (chat template
rendered) and the continuation scored for each choice. --model is needed only for --chat-template auto.

  --dataset FILE     JSON Lines, Parquet or MMLU-style CSV
${DATASET_USAGE}  --model PATH       .gguf file, ONNX model folder or http(s) URL (renders its chat template)
  --limit N          only the first N items
${PROMPT_USAGE}`;

export async function run(argv: string[]): Promise<number> {
  const parsed = parseCommand("prompts", argv, {
    dataset: { type: "string" }, model: { type: "string" }, limit: { type: "string" },
    layout: { type: "string" }, fields: { type: "string" }, ...PROMPT_FLAG_OPTIONS,
  }, HELP);
  if (typeof parsed === "number") return parsed;
  const v = parsed.values;
  const fail = (flag: string, problem: string): never => {
    throw new UsageError(`--${flag}: ${problem}`);
  };
  let flags: PromptFlags;
  let limit: number | undefined;
  let datasetOptions;
  try {
    if (!v.dataset) fail("dataset", "is required");
    flags = parsePromptFlags(v, fail);
    limit = intOption("limit", v.limit, undefined, 1, Number.MAX_SAFE_INTEGER);
    datasetOptions = parseDatasetOptions(v.layout, v.fields, fail);
    if (flags.settings.chatTemplate === "auto" && !v.model) fail("chat-template", "auto needs --model (the template is the model's own)");
  } catch (err) {
    if (err instanceof UsageError) return usage("prompts", err.message, HELP);
    throw err;
  }
  // Loaded only now, so --help and usage errors answer at once.
  const { CalibkitError } = await import("../../api/index.js");
  const { choicesOf, loadFewshot, promptItemOf, withoutExemplars } = await import("../../run/index.js");
  const { preparePrompts, resolvePromptSettings } = await import("../../evidence/index.js");
  let adapter;
  try {
    const choices = choicesOf(await loadDataset(v.dataset!, datasetOptions));
    const fewshot = await loadFewshot(flags.fewshot, choices.type, datasetOptions);
    const { kept } = withoutExemplars(choices.items, fewshot);
    const items = limit === undefined ? kept : kept.slice(0, limit);
    if (v.model) adapter = await (await import("../../adapters/index.js")).openAdapter(v.model);
    const settings = await resolvePromptSettings({ ...flags.settings, fewshot }, adapter);
    const prepared = await preparePrompts(items.map((i) => promptItemOf(i, choices.type)), settings, adapter);
    const lines = prepared.map((p, i) => JSON.stringify({ id: p.id, prompt: p.prefix, continuations: p.continuations, label: items[i]!.answer }));
    process.stdout.write(lines.map((l) => l + "\n").join(""));
    return 0;
  } catch (err) {
    if (err instanceof CalibkitError) {
      process.stderr.write(`calibkit prompts: ${err.message}\n`);
      return 1;
    }
    throw err;
  } finally {
    await adapter?.dispose();
  }
}
