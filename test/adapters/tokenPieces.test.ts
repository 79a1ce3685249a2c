// Token pieces on the real stories260K tokenizer (SentencePiece with byte fallback): pieces join to the text of
// all the tokens, a word keeps its leading space, a character split over byte tokens comes whole.
import { getLlama, type LlamaModel, type Token } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TokenPieces, withoutBos } from "../../src/adapters/tokenPieces.js";
import { REPO } from "../service/helpers.js";

let model: LlamaModel;

beforeAll(async () => {
  const llama = await getLlama({ gpu: false });
  model = await llama.loadModel({ modelPath: `${REPO}../shared/models/stories260K.gguf` });
}, 60_000);

afterAll(async () => {
  await model?.dispose();
});

const piecesOf = (tokens: readonly Token[], context: readonly Token[] = []): string[] => {
  const pieces = new TokenPieces(model, context);
  const out = tokens.map((t) => pieces.push(t));
  out[out.length - 1] += pieces.flush();
  return out;
};

describe("TokenPieces", () => {
  it("joins to the text of all the tokens, multi-byte characters included", () => {
    for (const text of ["Once upon a time she went to the park.", "Café naïve 日本 ok", "  two spaces\nand a line", "日"]) {
      const tokens = model.tokenize(text, false);
      const pieces = piecesOf(tokens);
      expect(pieces.join("")).toBe(model.detokenize(tokens));
      expect(pieces.join("")).not.toContain("\uFFFD");
    }
  });

  it("gives a character split over byte tokens to the token that completes it", () => {
    const tokens = model.tokenize("日", false);
    const pieces = piecesOf(tokens);
    expect(pieces.filter((p) => p !== "")).toEqual(["日"]);
    expect(pieces.at(-1)).toBe("日");
  });

  it("keeps a continuation's leading space after a prompt, where decoding it alone drops it", () => {
    const prompt = model.tokenize("She went to", false);
    const next = model.tokenize("She went to the park", false).slice(prompt.length);
    expect(model.detokenize(next)).toBe("the park");
    expect(piecesOf(next, prompt).join("")).toBe(" the park");
    // A leading BOS is not part of the text (decoding it would put a space before the first word).
    const withBos = [model.tokens.bos!, ...prompt];
    expect(withoutBos(model, withBos)).toEqual(prompt);
    expect(piecesOf(withoutBos(model, withBos)).join("")).toBe("She went to");
  });

  it("flushes an unfinished character at the end rather than losing it", () => {
    const bytes = model.tokenize("日", false);
    const pieces = new TokenPieces(model);
    expect(bytes.slice(0, -1).map((t) => pieces.push(t))).toEqual(bytes.slice(0, -1).map(() => ""));
    expect(pieces.flush()).toBe(model.detokenize(bytes.slice(0, -1)));
  });
});
