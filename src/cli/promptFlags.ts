// The prompt flags shared by `calibkit prompts`, `calibkit evidence` and `calibkit run` (docs/prompts.md):
// their parseArgs table and help text; the values are parsed by the run library, each error naming the flag.
export { parsePromptFlags, type PromptFlags, type PromptFlagValues } from "../run/index.js";

export const PROMPT_FLAG_OPTIONS = {
  format: { type: "string" }, template: { type: "string" }, "num-fewshot": { type: "string" }, fewshot: { type: "string" },
  "chat-template": { type: "string" }, system: { type: "string" }, normalize: { type: "string" },
} as const;

export const PROMPT_USAGE = `  --format F         letters | cloze | instruct | auto (default auto: letters under a chat
                     template, cloze for a base model); docs/prompts.md gives each text
  --template FILE    your own format: a template file (docs/prompts.md, "Template files")
  --num-fewshot K    exemplars before every item, the first K of --fewshot (default 0)
  --fewshot FILE     exemplars with answers (any dataset file); never also scored
  --chat-template T  auto | none | FILE.jinja (default auto: the model's own template, if any)
  --system TEXT      system prompt (a system message under a chat template)
  --normalize N      none | chars | tokens: log-likelihood ÷ continuation length (default none)
`;
