// From an item to exactly what the adapter is given (the chat template rendered where one is in use), and
// the scoring of prepared prompts with length normalisation before the options are renormalised.
import { levelRank, type AccessLevel } from "../../api/index.js";
import type { ModelAdapter } from "../../adapters/index.js";
import { assemblePrompt, formatOf } from "./assemble.js";
import { PromptFormatError } from "./errors.js";
import { renderTemplateFileChat } from "./resolve.js";
import type { PromptItem, ResolvedPromptSettings } from "./types.js";

export interface PreparedPrompt {
  id: string;
  /** The text the model is given before each continuation. */
  prefix: string;
  /** A rendered chat prompt: special-token text is parsed as special tokens. */
  rendered: boolean;
  continuations: string[];
  names: string[];
}

/** Prepares items with one resolved setting; `adapter` renders chat prompts (required for `auto` templates). */
export async function preparePrompts(
  items: readonly PromptItem[], settings: ResolvedPromptSettings, adapter: ModelAdapter | undefined,
): Promise<PreparedPrompt[]> {
  const format = formatOf(settings);
  const out: PreparedPrompt[] = [];
  for (const item of items) {
    const a = assemblePrompt(item, settings, format);
    let prefix: string;
    if (typeof a.prompt === "string") prefix = a.prompt;
    else if (adapter) prefix = (await adapter.renderChat(a.prompt, { chatTemplate: settings.chat!.template, ...(settings.pinnedDate ? { pinnedDate: settings.pinnedDate } : {}) })).text;
    else if (typeof settings.chat!.template === "object") prefix = renderTemplateFileChat(settings.chat!.template.file, a.prompt, settings.pinnedDate!);
    else throw new PromptFormatError("--chat-template auto needs --model (the template is the model's own)", "chat_template");
    out.push({ id: item.id, prefix, rendered: typeof a.prompt !== "string", continuations: a.continuations, names: a.names });
  }
  return out;
}

/**
 * Log-scores per prepared prompt at `level` (L2+: whole continuations, batched; L1: first tokens), divided
 * by each continuation's length in characters (lm-eval's acc_norm) or tokens when asked.
 */
export async function scorePrepared(
  prepared: readonly PreparedPrompt[], adapter: ModelAdapter, level: AccessLevel, settings: Pick<ResolvedPromptSettings, "normalize">,
  signal?: AbortSignal,
): Promise<number[][]> {
  const call = signal ? { signal } : {};
  let rows: number[][];
  if (levelRank(level) >= 2) {
    rows = await adapter.scoreContinuations(prepared.map((p) => ({ prefix: p.prefix, continuations: p.continuations, rendered: p.rendered })), call);
  } else {
    rows = [];
    for (const p of prepared) rows.push(await adapter.firstTokenLogProbs(p.prefix, p.continuations, { ...call, rendered: p.rendered }));
  }
  if (settings.normalize === "none") return rows;
  const out: number[][] = [];
  for (const [i, p] of prepared.entries()) {
    const lengths = settings.normalize === "chars"
      // lm-eval divides by the choice's length, without the delimiter before it.
      ? p.continuations.map((c) => c.trimStart().length)
      : await Promise.all(p.continuations.map((c) => adapter.countTokens(c)));
    out.push(rows[i]!.map((s, k) => s / Math.max(1, lengths[k]!)));
  }
  return out;
}
