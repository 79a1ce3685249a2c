// The prompt settings of a run or a suite task, from their plain string values (command-line flags or a
// suite file's fields; docs/prompts.md): parsed the same way everywhere, each error naming the flag.
import { resolve } from "node:path";
import type { PromptSettings } from "../evidence/index.js";

export interface PromptFlagValues {
  format?: string | undefined;
  template?: string | undefined;
  "num-fewshot"?: string | undefined;
  fewshot?: string | undefined;
  "chat-template"?: string | undefined;
  system?: string | undefined;
  normalize?: string | undefined;
}

/** What the flags ask, before the few-shot file is read: `fewshot` names the file and how many to take. */
export interface PromptFlags {
  settings: Partial<Omit<PromptSettings, "fewshot">>;
  fewshot?: { file: string; k: number };
}

/** `fail(flag, problem)` throws the caller's usage error. */
export function parsePromptFlags(v: PromptFlagValues, fail: (flag: string, problem: string) => never): PromptFlags {
  const settings: PromptFlags["settings"] = {};
  if (v.template !== undefined) {
    if (v.format !== undefined && v.format !== "template") fail("template", `gives the format; drop --format ${v.format} or the template`);
    settings.format = { templateFile: resolve(v.template) };
  } else if (v.format !== undefined) {
    if (v.format === "template") fail("format", "template needs --template FILE");
    if (!["letters", "cloze", "instruct", "auto"].includes(v.format)) fail("format", `must be letters, cloze, instruct or auto, not "${v.format}"`);
    settings.format = v.format as "letters" | "cloze" | "instruct" | "auto";
  }
  const ct = v["chat-template"];
  if (ct !== undefined) settings.chatTemplate = ct === "auto" || ct === "none" ? ct : { file: resolve(ct) };
  if (v.system !== undefined) settings.system = v.system;
  if (v.normalize !== undefined) {
    if (!["none", "chars", "tokens"].includes(v.normalize)) fail("normalize", `must be none, chars or tokens, not "${v.normalize}"`);
    settings.normalize = v.normalize as "none" | "chars" | "tokens";
  }
  const raw = v["num-fewshot"];
  let k = 0;
  if (raw !== undefined) {
    if (!/^\d+$/.test(raw.trim())) fail("num-fewshot", `must be a whole number, not "${raw}"`);
    k = Number(raw);
  }
  if (k > 0 && v.fewshot === undefined) fail("num-fewshot", "needs --fewshot FILE (the exemplars)");
  if (v.fewshot !== undefined && raw === undefined) fail("fewshot", "needs --num-fewshot K (how many exemplars)");
  return { settings, ...(k > 0 ? { fewshot: { file: resolve(v.fewshot!), k } } : {}) };
}
