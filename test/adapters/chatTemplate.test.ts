// The GGUF chat-template renderer on the real stories260K (a base model: no template in its metadata, so the
// templates come from files), checked against transformers.js's own Jinja rendering of the same messages.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Llama, LlamaModel } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultModelsDir, modelChatTemplate, renderChatPrompt, type ChatMessage } from "../../src/adapters/index.js";
import { pinTemplateDate, strftimeUtc } from "../../src/adapters/chatDate.js";

const TEMPLATES = join(import.meta.dirname, "../../fixtures/chat-templates");
const file = (name: string) => join(TEMPLATES, name);
const PINNED = new Date(Date.UTC(2025, 2, 14));

let llama: Llama;
let model: LlamaModel;
type Tokenizer = { apply_chat_template: (m: ChatMessage[], o: Record<string, unknown>) => string };
let hf: Tokenizer;

beforeAll(async () => {
  const { getLlama, LlamaLogLevel } = await import("node-llama-cpp");
  llama = await getLlama({ gpu: false, logLevel: LlamaLogLevel.error });
  model = await llama.loadModel({ modelPath: join(defaultModelsDir(), "stories260K.gguf") });
  const { AutoTokenizer, env } = await import("@huggingface/transformers");
  env.allowRemoteModels = false;
  env.localModelPath = defaultModelsDir() + "/";
  hf = (await AutoTokenizer.from_pretrained("tiny-gpt2")) as unknown as Tokenizer;
});
afterAll(async () => {
  await model.dispose();
});

/** transformers.js's rendering, with the same BOS text and the same pinned date. */
// transformers.js refuses to have strftime_now overridden; a test that needs it pins the template's text first.
function reference(template: string, messages: ChatMessage[], addGenerationPrompt = true): string {
  return hf.apply_chat_template(messages, {
    chat_template: template, tokenize: false, add_generation_prompt: addGenerationPrompt,
    bos_token: "<s>", date_string: strftimeUtc(PINNED, "%d %b %Y"),
  });
}

const SYSTEM: ChatMessage = { role: "system", content: "You are a careful grader." };
const FEWSHOT: ChatMessage[] = [
  { role: "user", content: "What is 2+2?\nA. 3\nB. 4\nAnswer:" },
  { role: "assistant", content: "B" },
  { role: "user", content: "What colour is the sky?\nA. blue\nB. green\nAnswer:" },
  { role: "assistant", content: "A" },
  { role: "user", content: "What does Lily play with?\nA. toys\nB. a dog\nAnswer:" },
];

describe("renderChatPrompt on stories260K with template files", () => {
  it("stories260K has no chat template of its own", () => {
    expect(modelChatTemplate(model)).toBeUndefined();
  });

  for (const name of ["chatml.jinja", "llama3.jinja"]) {
    const template = () => readFileSync(file(name), "utf8");
    it(`${name}: one user turn equals transformers.js's rendering`, async () => {
      const messages: ChatMessage[] = [{ role: "user", content: "Hello there" }];
      const out = await renderChatPrompt(model, messages, { chatTemplate: { file: file(name) }, addGenerationPrompt: true, pinnedDate: PINNED });
      expect(out.text).toBe(reference(template(), messages));
      expect(out.wrapperName).toBe("JinjaTemplate");
    });

    it(`${name}: system prompt and multi-turn few-shot equal transformers.js's rendering`, async () => {
      const messages = [SYSTEM, ...FEWSHOT];
      const out = await renderChatPrompt(model, messages, { chatTemplate: { file: file(name) }, addGenerationPrompt: true, pinnedDate: PINNED });
      expect(out.text).toBe(reference(template(), messages));
      expect(out.text).toContain("You are a careful grader.");
      expect(out.text.indexOf("What is 2+2?")).toBeLessThan(out.text.indexOf("What does Lily"));
    });

    it(`${name}: without the generation prompt equals transformers.js's rendering`, async () => {
      const messages = [SYSTEM, ...FEWSHOT];
      const out = await renderChatPrompt(model, messages, { chatTemplate: { file: file(name) }, addGenerationPrompt: false, pinnedDate: PINNED });
      expect(out.text).toBe(reference(template(), messages, false));
    });
  }

  it("tokens come from the rendered text with BOS once (template without bos_token: BOS added)", async () => {
    const out = await renderChatPrompt(model, [SYSTEM, ...FEWSHOT], { chatTemplate: { file: file("chatml.jinja") }, addGenerationPrompt: true });
    const bos = model.tokens.bos!;
    expect(out.tokens[0]).toBe(bos);
    expect(out.tokens.filter((t) => t === bos)).toHaveLength(1);
    expect(out.tokens).toEqual([bos, ...model.tokenize(out.text, true)]);
  });

  it("tokens come from the rendered text with BOS once (template writing bos_token: not doubled, a special token)", async () => {
    const out = await renderChatPrompt(model, [SYSTEM, ...FEWSHOT], { chatTemplate: { file: file("llama3.jinja") }, addGenerationPrompt: true });
    const bos = model.tokens.bos!;
    expect(out.text.startsWith("<s>")).toBe(true);
    expect(out.tokens[0]).toBe(bos);
    expect(out.tokens.filter((t) => t === bos)).toHaveLength(1);
    // The whole rendered text tokenized with special tokens gives the same tokens.
    expect(out.tokens).toEqual(model.tokenize(out.text, true));
  });

  it("the pinned date is in the prompt, the same on every call, and changes with the setting", async () => {
    const messages: ChatMessage[] = [{ role: "user", content: "Hi" }];
    const a = await renderChatPrompt(model, messages, { chatTemplate: { file: file("llama3.jinja") }, addGenerationPrompt: true, pinnedDate: PINNED });
    expect(a.text).toContain("Today Date: 14 Mar 2025\n");
    const b = await renderChatPrompt(model, messages, { chatTemplate: { file: file("llama3.jinja") }, addGenerationPrompt: true, pinnedDate: PINNED });
    expect(b).toEqual(a);
    const dflt = await renderChatPrompt(model, messages, { chatTemplate: { file: file("llama3.jinja") }, addGenerationPrompt: true });
    expect(dflt.text).toContain("Today Date: 26 Jul 2024\n");
    expect(dflt.templateSource).not.toBe(a.templateSource);
  });

  it("a template that calls strftime_now directly gets the pinned date, as transformers.js renders it", async () => {
    const messages: ChatMessage[] = [{ role: "user", content: "Hi" }];
    const out = await renderChatPrompt(model, messages, { chatTemplate: { file: file("today.jinja") }, addGenerationPrompt: true, pinnedDate: PINNED });
    expect(out.text).toContain("Today is Friday 14 March 2025.");
    expect(out.text).toBe(reference(pinTemplateDate(readFileSync(file("today.jinja"), "utf8"), PINNED), messages));
    expect(pinTemplateDate(`{{ strftime_now('%Y-%m-%d') }}`, PINNED)).toBe(`{{ "2025-03-14" }}`);
  });

  it("a missing template file is a clear error naming it", async () => {
    await expect(renderChatPrompt(model, [{ role: "user", content: "x" }], { chatTemplate: { file: "/nope/missing.jinja" }, addGenerationPrompt: true }))
      .rejects.toThrow(/missing\.jinja/);
  });

  it("a final assistant message is continued, not closed, when the generation prompt is asked for", async () => {
    const messages: ChatMessage[] = [{ role: "user", content: "Pick one" }, { role: "assistant", content: "The answer is" }];
    const out = await renderChatPrompt(model, messages, { chatTemplate: { file: file("chatml.jinja") }, addGenerationPrompt: true });
    expect(out.text).toBe("<|im_start|>user\nPick one<|im_end|>\n<|im_start|>assistant\nThe answer is");
  });

  it('"auto" on a model without a template uses node-llama-cpp\'s wrapper for it, BOS once', async () => {
    const out = await renderChatPrompt(model, [SYSTEM, { role: "user", content: "Hi" }], { chatTemplate: "auto", addGenerationPrompt: true });
    expect(out.wrapperName).not.toBe("JinjaTemplate");
    expect(out.text).toContain("You are a careful grader.");
    expect(out.text).toContain("Hi");
    expect(out.tokens.filter((t) => t === model.tokens.bos)).toHaveLength(1);
    expect(out.templateSource).toContain(`wrapper:${out.wrapperName}`);
  });

  it('"none" joins the messages\' text, BOS once', async () => {
    const out = await renderChatPrompt(model, [SYSTEM, { role: "user", content: "Hi" }], { chatTemplate: "none", addGenerationPrompt: true });
    expect(out.text).toBe("You are a careful grader.\n\nHi");
    expect(out.tokens[0]).toBe(model.tokens.bos);
    expect(out.wrapperName).toBe("none");
  });
});
