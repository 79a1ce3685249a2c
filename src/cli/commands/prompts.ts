// `calibkit prompts`: exactly what the model will be given for each dataset item, one JSON object per line
// (lm-evaluation-harness's write_out), so a user can check the prompts before spending model time on them.
import { loadDataset } from "../../datasets/index.js";
import { GENERATION_TASK_NAMES, type GenerationTaskName } from "../../evidence/grading/index.js";
import { intOption, parseCommand, usage, UsageError } from "../args.js";
import { parsePromptFlags, PROMPT_FLAG_OPTIONS, PROMPT_USAGE, type PromptFlags } from "../promptFlags.js";
import { DATASET_USAGE, parseDatasetOptions } from "../run/datasetOptions.js";

export const summary = "Print the prompts and continuations a model would be given for a dataset (one JSON line each)";

const HELP = `usage: calibkit prompts --dataset FILE [--format F] [--num-fewshot K --fewshot FILE]
                        [--chat-template T] [--system S] [--model PATH] [--limit N]
       calibkit prompts --task T --dataset FILE [--fewshot FILE] [--num-fewshot K] [--chat-template T]
                        [--statistics] [--grader judge] ...

Prints {"id", "prompt", "continuations", "label"} per item: the text the model is given (chat template
rendered) and the continuation scored for each choice. --model is needed only for --chat-template auto.
With --task (free-form answers, docs/generation.md) it prints {"id", "prompt", "until", "references"}: the
text the model is given, the stops it decodes to, and the answers the task grades against; --statistics
adds "statistics": the scored prompts the model answers about its own answers (the entailment judge
and P(True), the answer's and a claim's), with the item's question filled in and {a}, {b} standing for
the answers; --grader judge adds "judge": the judge grader's prompt for each reference, {answer} standing
for the answer it grades (docs/generation.md, "Grading").

  --dataset FILE     JSON Lines, Parquet or MMLU-style CSV
  --task T           ${GENERATION_TASK_NAMES.join(" | ")}: lm-eval's task of that
                     name (prompt, few-shot, stops, grader) or calibkit's generic task; --num-fewshot
                     defaults to the task's own (gsm8k 5, the others 0), exemplars drawn from --fewshot
                     as lm-eval draws them
${DATASET_USAGE}  --model PATH       .gguf file, ONNX model folder or http(s) URL (renders its chat template)
  --limit N          only the first N items
${PROMPT_USAGE}`;

export async function run(argv: string[]): Promise<number> {
  const parsed = parseCommand("prompts", argv, {
    dataset: { type: "string" }, model: { type: "string" }, limit: { type: "string" }, task: { type: "string" },
    layout: { type: "string" }, fields: { type: "string" }, statistics: { type: "boolean" }, grader: { type: "string" }, ...PROMPT_FLAG_OPTIONS,
  }, HELP);
  if (typeof parsed === "number") return parsed;
  const v = parsed.values;
  const fail = (flag: string, problem: string): never => {
    throw new UsageError(`--${flag}: ${problem}`);
  };
  let flags: PromptFlags;
  let limit: number | undefined;
  let datasetOptions;
  let task: { name: GenerationTaskName; numFewshot?: number } | undefined;
  try {
    if (!v.dataset) fail("dataset", "is required");
    if (v.task !== undefined) {
      if (!(GENERATION_TASK_NAMES as readonly string[]).includes(v.task)) fail("task", `must be one of ${GENERATION_TASK_NAMES.join(", ")}, not "${v.task}"`);
      for (const flag of ["format", "template", "normalize"] as const) if (v[flag] !== undefined) fail(flag, `the task gives the prompt; drop --${flag} or --task`);
      const raw = v["num-fewshot"];
      if (raw !== undefined && !/^\d+$/.test(raw.trim())) fail("num-fewshot", `must be a whole number, not "${raw}"`);
      task = { name: v.task as GenerationTaskName, ...(raw !== undefined ? { numFewshot: Number(raw) } : {}) };
    }
    if (v.statistics && !task) fail("statistics", "shows the scored prompts of free-form answers: give --task as well");
    if (v.grader !== undefined && v.grader !== "task" && v.grader !== "judge") fail("grader", `must be task or judge, not "${v.grader}"`);
    if (v.grader !== undefined && !task) fail("grader", "grades free-form answers: give --task as well");
    flags = parsePromptFlags(task ? { ...v, "num-fewshot": undefined, fewshot: undefined } : v, fail);
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
    if (task) {
      const { generationPrompts } = await import("../../run/index.js");
      if (v.model) adapter = await (await import("../../adapters/index.js")).openAdapter(v.model);
      const { prompts } = await generationPrompts(await loadDataset(v.dataset!, datasetOptions), {
        task: task.name, settings: flags.settings, ...(task.numFewshot !== undefined ? { numFewshot: task.numFewshot } : {}),
        ...(v.fewshot ? { fewshotFile: v.fewshot } : {}), datasetOptions,
      }, adapter);
      const shown = limit === undefined ? prompts : prompts.slice(0, limit);
      const statistics = v.statistics || v.grader === "judge" ? await statisticPrompts(v.dataset!, datasetOptions, task.name) : undefined;
      process.stdout.write(shown.map((p) => JSON.stringify({
        id: p.id, prompt: p.prompt, until: p.until, references: p.references,
        ...(v.statistics ? { statistics: statistics!.get(p.id)!.statistics } : {}), ...(v.grader === "judge" ? { judge: statistics!.get(p.id)!.judge } : {}),
      }) + "\n").join(""));
      return 0;
    }
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

/** Each item's entailment and P(True) prompts (docs/generation.md, "Statistics") and judge grader prompts, its question filled in. */
async function statisticPrompts(dataset: string, datasetOptions: Parameters<typeof loadDataset>[1], name: GenerationTaskName) {
  const {
    ANSWER_JUDGE_PROMPT, ENTAILMENT_PROMPT, GENERATION_TASKS, P_TRUE_CLAIM_PROMPT, P_TRUE_PROMPT, answerJudgeText, entailmentText, pTrueClaimText, pTrueText,
  } = await import("../../evidence/index.js");
  const { generationItemsOf } = await import("../../run/index.js");
  const task = GENERATION_TASKS[name];
  const out = new Map<string, { statistics: unknown; judge: unknown }>();
  for (const item of generationItemsOf(await loadDataset(dataset, datasetOptions), name)) {
    const prepared = task.prepare(item);
    const question = task.text(prepared);
    out.set(item.id, {
      statistics: {
        semantic_matrix_entail: { prompt: entailmentText(question, "{a}", "{b}"), continuations: ENTAILMENT_PROMPT.continuations },
        p_true: { prompt: pTrueText(question, "{a}"), continuations: P_TRUE_PROMPT.continuations },
        p_true_claim: { prompt: pTrueClaimText(question, "{a}"), continuations: P_TRUE_CLAIM_PROMPT.continuations },
      },
      judge: prepared.references.map((reference) => ({
        id: ANSWER_JUDGE_PROMPT.id, reference, prompt: answerJudgeText(question, reference, "{answer}"), continuations: ANSWER_JUDGE_PROMPT.continuations,
      })),
    });
  }
  return out;
}
