// prompt_template_hash of a generation run: the task (its definition's source and texts, rendered on a probe
// item), the chat template's source, the system text, and the few-shot rule with the pool's content.
import { createHash } from "node:crypto";
import type { GenerationPromptSettings } from "./types.js";

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const PROBE = { id: "probe", question: "{question}", context: "{context}", references: ["{reference}"] };
const COMPLETION_PROBE = { ...PROBE, question: "" };

export function generationPromptHash(settings: GenerationPromptSettings): string {
  const { task } = settings;
  const payload = {
    v: 1,
    task: {
      name: task.name, source: task.source, description: task.description,
      text: [task.text(PROBE), task.text(COMPLETION_PROBE)], target: task.target(PROBE),
      delimiters: [task.targetDelimiter, task.fewshotDelimiter], until: [task.until(PROBE), task.until(COMPLETION_PROBE)],
    },
    chat: settings.chat?.source ?? null,
    system: settings.system ?? null,
    fewshot: settings.numFewshot === 0 ? null : {
      k: settings.numFewshot, sampler: task.sampler, seed: settings.seed, dropsItself: task.dropsItself,
      pool: sha256(JSON.stringify(settings.pool.map((e) => task.prepare(e)))),
    },
  };
  return `sha256:${sha256(JSON.stringify(payload))}`;
}
