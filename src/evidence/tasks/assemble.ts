// Every item's generation prompt as lm-eval's fewshot_context builds it (api/task.py, api/utils.py): the
// system text and the description joined by maybe_delimit, then each exemplar as doc_to_text + target
// delimiter + target + few-shot delimiter, then the item's doc_to_text. Under a chat template the same parts
// are messages: a system message, a user and an assistant turn per exemplar, the item as the last user turn.
import type { PromptMessage } from "../format/index.js";
import { pyStrip } from "../grading/index.js";
import { pickFewshot } from "./fewshot.js";
import { PythonRandom } from "./pythonRandom.js";
import type { AssembledGeneration, GenerationPromptItem, GenerationPromptSettings } from "./types.js";

const isSpace = (c: string | undefined) => c !== undefined && pyStrip(c) === "";

/** lm-eval's maybe_delimit: the delimiter only where neither side has whitespace at the join. */
export function maybeDelimit(prefix: string | undefined, suffix: string | undefined, delimiter: string): string {
  if (!prefix) return suffix ?? "";
  if (!suffix) return prefix;
  return isSpace(prefix.at(-1)) || isSpace(suffix[0]) ? prefix + suffix : prefix + delimiter + suffix;
}

/** The prompts of `items` in order (the sampler's draws depend on the order, as in lm-eval). */
export function assembleGenerations(items: readonly GenerationPromptItem[], settings: GenerationPromptSettings): AssembledGeneration[] {
  const { task } = settings;
  const pool = settings.pool.map((e) => task.prepare(e));
  const rnd = new PythonRandom(settings.seed);
  const system = maybeDelimit(settings.system, task.description, task.fewshotDelimiter);
  return items.map((raw) => {
    const item = task.prepare(raw);
    const shots = pickFewshot(task, pool, settings.numFewshot, item, rnd);
    let prompt: string | PromptMessage[];
    if (settings.chat === null) {
      prompt = system + shots.map((s) => task.text(s) + task.targetDelimiter + task.target(s) + task.fewshotDelimiter).join("") + task.text(item);
    } else {
      const messages: PromptMessage[] = system === "" ? [] : [{ role: "system", content: system }];
      for (const s of shots) messages.push({ role: "user", content: task.text(s) }, { role: "assistant", content: task.target(s) });
      messages.push({ role: "user", content: task.text(item) });
      prompt = messages;
    }
    return { id: item.id, prompt, until: task.until(item), references: item.references };
  });
}
