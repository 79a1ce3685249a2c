// A user's own format in a template file: header lines `#! key: value`, then the prompt text with
// placeholders. docs/prompts.md documents the syntax; every placeholder and key is checked, so a typo is an
// error naming the line rather than a prompt with a hole in it.
import { readFileSync } from "node:fs";
import { PromptFormatError } from "./errors.js";
import { isCompletion, type Format } from "./formats.js";
import type { PromptItem } from "./types.js";

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const PLACEHOLDERS = ["context", "question", "subject", "choices", "texts", "names", "stem"] as const;
type Placeholder = (typeof PLACEHOLDERS)[number];
const TARGETS = ["letters", "texts", "names"] as const;

function values(item: PromptItem): Record<Placeholder, string> {
  const q = item.question?.trim() ?? "";
  const context = item.context.trim();
  return {
    context, question: q, subject: (item.subject ?? "").replace(/_/g, " "),
    choices: item.texts.map((t, i) => `${LETTERS[i]}. ${t}`).join("\n"),
    texts: item.texts.join(", "), names: item.names.join(", "),
    stem: isCompletion(item) ? [context, q].filter((s) => s !== "").join(" ") : [context, q].filter((s) => s !== "").join("\n\n"),
  };
}

function fill(text: string, item: PromptItem): string {
  const v = values(item);
  return text.replace(/\{([a-z_]+)\}/g, (_, key: string) => v[key as Placeholder]);
}

/** Parses a template file's text; `file` names it in errors. */
export function parseTemplateFile(source: string, file: string): Format {
  const lines = source.replace(/\r\n/g, "\n").replace(/\n$/, "").split("\n");
  let target = "texts" as (typeof TARGETS)[number];
  let delimiter = " ";
  let description = "";
  let i = 0;
  for (; i < lines.length && lines[i]!.startsWith("#!"); i++) {
    const m = /^#!\s*([a-z]+)\s*:\s*(.*)$/.exec(lines[i]!);
    const where = `${file}, line ${i + 1}`;
    if (!m) throw new PromptFormatError(`${where}: a header line reads "#! key: value"`, "template");
    const [, key, raw] = m as unknown as [string, string, string];
    const json = (): string => {
      try {
        const v: unknown = JSON.parse(raw);
        if (typeof v === "string") return v;
      } catch { /* reported below */ }
      throw new PromptFormatError(`${where}: ${key} takes a JSON string such as " " or "\\n"`, "template");
    };
    if (key === "target") {
      if (!(TARGETS as readonly string[]).includes(raw.trim())) throw new PromptFormatError(`${where}: target is one of ${TARGETS.join(", ")}, not "${raw.trim()}"`, "template");
      target = raw.trim() as typeof target;
    } else if (key === "delimiter") delimiter = json();
    else if (key === "description") description = json();
    else throw new PromptFormatError(`${where}: unknown header "${key}" (target, delimiter, description)`, "template");
  }
  const body = lines.slice(i).join("\n");
  for (const [n, line] of lines.entries()) {
    for (const m of line.matchAll(/\{([a-z_]+)\}/g)) {
      if (!(PLACEHOLDERS as readonly string[]).includes(m[1]!)) {
        throw new PromptFormatError(`${file}, line ${n + 1}: unknown placeholder {${m[1]}} (${PLACEHOLDERS.map((p) => `{${p}}`).join(" ")})`, "template");
      }
    }
  }
  if (body.trim() === "") throw new PromptFormatError(`${file}: the template has no prompt text`, "template");
  return {
    id: `template-file`,
    description: (item) => (item.subject || !description.includes("{subject}") ? fill(description, item) : ""),
    text: (item) => fill(body, item),
    targets: (item) => target === "letters" ? item.texts.map((_, k) => LETTERS[k]!) : target === "names" ? [...item.names] : item.texts.map((t) => t.trim()),
    delimiter,
  };
}

export function readTemplateFile(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (cause) {
    throw new PromptFormatError(`cannot read the template file ${file}: ${cause instanceof Error ? cause.message : String(cause)}`, "template");
  }
}
