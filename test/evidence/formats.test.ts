// The one prompt path on the real stories260K: the cloze format continuing a sentence directly, the hash rule
// (stable, and different for every setting changed), normalisation, template files, chat prompts scored
// with the rendered tokens.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLlamaCppAdapter, defaultModelsDir, type LlamaCppModelAdapter } from "../../src/adapters/index.js";
import {
  buildEvaluateRequest, parseTemplateFile, preparePrompts, promptSettingsHash, resolvePromptSettings, scorePrepared,
  type PromptItem, type PromptSettings,
} from "../../src/evidence/index.js";

const LILY = "Once upon a time, there was a little girl named Lily. She loved to play with her";
const CHAT = join(import.meta.dirname, "../../fixtures/chat-templates");
const dir = mkdtempSync(join(tmpdir(), "calibkit-formats-"));
let adapter: LlamaCppModelAdapter;

beforeAll(async () => {
  adapter = await createLlamaCppAdapter({ modelPath: join(defaultModelsDir(), "stories260K.gguf"), gpu: false });
});
afterAll(async () => {
  await adapter.dispose();
});

const lilyQuery = (instructions: string) => ({
  context: LILY,
  queries: { toy: { type: "set", instructions, options: { " toys": "", " doll": "", " dog": "" }, calibration_profile: "p" } },
});

describe("the cloze format on stories260K", () => {
  it("a query with empty instructions is a sentence continued directly, and puts ` toys` first", async () => {
    const req = await buildEvaluateRequest({ ...lilyQuery(""), adapter, prompt: { format: "cloze" } });
    const p = (req.queries.toy as { evidence: { option_probabilities: Record<string, number> } }).evidence.option_probabilities;
    const ranked = Object.entries(p).sort((a, b) => b[1] - a[1]).map(([n]) => n);
    expect(ranked[0]).toBe(" toys");
    const [prepared] = await preparePrompts([{ id: "x", context: LILY, question: "", names: ["a", "b"], texts: [" toys", " doll"] }], await resolvePromptSettings({ format: "cloze" }, adapter), adapter);
    // One space then the trimmed choice text, right after the context.
    expect(prepared!.prefix).toBe(LILY);
    expect(prepared!.continuations).toEqual([" toys", " doll"]);
  });

  it("the default (auto) on a base model is cloze, and gives the same evidence", async () => {
    const auto = await buildEvaluateRequest({ ...lilyQuery(""), adapter });
    const cloze = await buildEvaluateRequest({ ...lilyQuery(""), adapter, prompt: { format: "cloze" } });
    expect(auto.queries.toy).toEqual(cloze.queries.toy);
  });

  it("instruct keeps the type's template with one space before the trimmed name", async () => {
    const settings = await resolvePromptSettings({ format: "instruct" }, adapter);
    const req = await buildEvaluateRequest({ ...lilyQuery("What does Lily play with?"), adapter, prompt: settings });
    expect(Object.keys((req.queries.toy as { evidence: { option_probabilities: object } }).evidence.option_probabilities)).toEqual([" toys", " doll", " dog"]);
    const [p] = await preparePrompts([{ id: "q", context: LILY, question: "Q?", names: [" toys"], texts: [" toys"], instruct: { prompt: "P\nAnswer:", continuations: [" toys"] } }], settings, adapter);
    expect(p!.continuations).toEqual([" toys"]);
  });
});

const ITEM: PromptItem = { id: "i1", context: "", question: "What is 2+2?", subject: "math", names: ["A", "B"], texts: ["3", "4"], answer: "B" };
const SHOT: PromptItem = { id: "s1", context: "", question: "What is 1+1?", names: ["A", "B"], texts: ["2", "5"], answer: "A" };

describe("prompt_template_hash", () => {
  const hashOf = async (s: Partial<PromptSettings>) => promptSettingsHash(await resolvePromptSettings(s, adapter), "set");

  it("is stable across runs: the same settings give the same hash", async () => {
    const s: Partial<PromptSettings> = { format: "letters", fewshot: [SHOT], system: "Be brief.", chatTemplate: { file: join(CHAT, "llama3.jinja") } };
    expect(await hashOf(s)).toBe(await hashOf({ ...s }));
    expect(await hashOf(s)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("changes with every setting that changes what the model sees or how it is scored", async () => {
    const template = join(dir, "mine.txt");
    writeFileSync(template, "#! target: letters\n{stem}\n{choices}\nAnswer:\n");
    const template2 = join(dir, "mine2.txt");
    writeFileSync(template2, "#! target: letters\n{stem}\n{choices}\nThe answer is\n");
    const variants: Partial<PromptSettings>[] = [
      {},
      { format: "letters" },
      { format: "instruct" },
      { format: { templateFile: template } },
      { format: { templateFile: template2 } },
      { chatTemplate: { file: join(CHAT, "chatml.jinja") } },
      { chatTemplate: { file: join(CHAT, "llama3.jinja") } },
      { chatTemplate: { file: join(CHAT, "llama3.jinja") }, pinnedDate: new Date(Date.UTC(2025, 0, 1)) },
      { system: "Be brief." },
      { system: "Be careful." },
      { fewshot: [SHOT] },
      { fewshot: [{ ...SHOT, id: "s2" }] },
      { fewshot: [{ ...SHOT, texts: ["2", "6"] }] },
      { normalize: "chars" },
      { normalize: "tokens" },
    ];
    const hashes = await Promise.all(variants.map(hashOf));
    expect(new Set(hashes).size).toBe(variants.length);
  });

  it("a format's query type matters only where the text depends on it (instruct)", async () => {
    const cloze = await resolvePromptSettings({ format: "cloze" }, adapter);
    expect(promptSettingsHash(cloze, "set")).toBe(promptSettingsHash(cloze, "interval"));
    const instruct = await resolvePromptSettings({ format: "instruct" }, adapter);
    expect(promptSettingsHash(instruct, "set")).not.toBe(promptSettingsHash(instruct, "interval"));
  });
});

describe("normalisation and scoring", () => {
  it("chars divides each log-likelihood by the choice's length (lm-eval's acc_norm), tokens by its token count", async () => {
    const item: PromptItem = { id: "n", context: LILY, names: ["a", "b"], texts: ["toys", "big red ball"] };
    const none = await resolvePromptSettings({ format: "cloze" }, adapter);
    const prepared = await preparePrompts([item], none, adapter);
    const [raw] = await scorePrepared(prepared, adapter, "L3", { normalize: "none" });
    const [chars] = await scorePrepared(prepared, adapter, "L3", { normalize: "chars" });
    const [tokens] = await scorePrepared(prepared, adapter, "L3", { normalize: "tokens" });
    expect(chars![0]).toBeCloseTo(raw![0]! / 4, 10);
    expect(chars![1]).toBeCloseTo(raw![1]! / 12, 10);
    const n = await adapter.countTokens(" big red ball");
    expect(n).toBeGreaterThan(1);
    expect(tokens![1]).toBeCloseTo(raw![1]! / n, 10);
  });

  it("a chat prompt is scored on the rendered tokens: the same as scoring its text with special tokens parsed", async () => {
    const settings = await resolvePromptSettings({ format: "letters", chatTemplate: { file: join(CHAT, "llama3.jinja") }, fewshot: [SHOT] }, adapter);
    const [p] = await preparePrompts([ITEM], settings, adapter);
    expect(p!.rendered).toBe(true);
    expect(p!.prefix.startsWith("<s><|start_header_id|>system<|end_header_id|>\n\nCutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n")).toBe(true);
    expect(p!.prefix.endsWith("<|start_header_id|>assistant<|end_header_id|>\n\n")).toBe(true);
    expect(p!.continuations).toEqual(["A", "B"]);
    const [scored] = await adapter.scoreContinuations([{ prefix: p!.prefix, continuations: p!.continuations, rendered: true }]);
    expect(scored!.every((x) => Number.isFinite(x) && x < 0)).toBe(true);
    // BOS once: the rendered "<s>" is the BOS token itself, not doubled.
    const tokens = adapter.tokenizePrompt(p!.prefix, true);
    expect(tokens.filter((t) => t === tokens[0])).toHaveLength(1);
  });
});

describe("template files", () => {
  it("fill the documented placeholders and headers, and name an unknown placeholder's line", () => {
    const f = parseTemplateFile('#! target: letters\n#! delimiter: " "\n#! description: "About {subject}:\\n"\n{stem}\n{choices}\nAnswer:\n', "t.txt");
    expect(f.description(ITEM) + f.text(ITEM)).toBe("About math:\nWhat is 2+2?\nA. 3\nB. 4\nAnswer:");
    expect(f.targets(ITEM)).toEqual(["A", "B"]);
    expect(() => parseTemplateFile("{stem}\n{choice}\n", "t.txt")).toThrow(/t\.txt, line 2: unknown placeholder \{choice\}/);
    expect(() => parseTemplateFile("#! target: words\n{stem}", "t.txt")).toThrow(/line 1: target is one of letters, texts, names/);
  });
});
