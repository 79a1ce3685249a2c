// The few-shot exemplars lm-eval picks for each item (api/samplers.py): `first_n` takes the pool's first n;
// the default sampler draws with one random.Random(seed) shared by all items in order, so item i gets the
// i-th draw — `sample(pool, n)`, or `sample(pool, n + 1)` with the item itself dropped and the first n kept
// when the few-shot split is the evaluation split.
import { PromptFormatError } from "../format/index.js";
import type { PythonRandom } from "./pythonRandom.js";
import type { GenerationPromptItem, GenerationTask } from "./types.js";

/** lm-eval compares documents as dicts; calibkit compares what the task reads of them (ids differ between files). */
const content = (i: GenerationPromptItem) => JSON.stringify([i.question, i.context, i.references, i.incorrect ?? null]);

export function pickFewshot(
  task: GenerationTask, pool: readonly GenerationPromptItem[], n: number, item: GenerationPromptItem, rnd: PythonRandom,
): GenerationPromptItem[] {
  if (n === 0) return [];
  const itself = content(item);
  const notItself = (x: GenerationPromptItem) => content(x) !== itself;
  if (task.sampler === "first_n") {
    const candidates = task.dropsItself ? pool.filter(notItself) : [...pool];
    if (candidates.length < n) throw new PromptFormatError(`the few-shot file holds ${candidates.length} exemplars for item ${item.id}; --num-fewshot asks for ${n}`, "fewshot");
    return candidates.slice(0, n);
  }
  const draws = task.dropsItself ? n + 1 : n;
  if (pool.length < draws) {
    throw new PromptFormatError(`the few-shot file holds ${pool.length} exemplars; ${task.name} draws ${draws} for ${n} shots (lm-eval's sampler)`, "fewshot");
  }
  const drawn = rnd.sample(pool, draws);
  return task.dropsItself ? drawn.filter(notItself).slice(0, n) : drawn;
}
