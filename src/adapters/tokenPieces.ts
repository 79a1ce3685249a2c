// Each token's share of a text, so that the pieces of a stream join to exactly the text of the whole stream
// (vLLM's incremental detokenisation): a token's piece is what it adds to the text decoded over the tokens just
// before it. A word keeps its leading space (a SentencePiece tokenizer drops it when a token is decoded alone),
// and a character split over byte tokens comes whole with the token that completes it (the others get "").
import type { LlamaModel, Token } from "node-llama-cpp";

/** Tokens decoded before the first one read: enough for a tokenizer's space and merge rules. */
const WINDOW = 6;

export class TokenPieces {
  #tokens: Token[];
  /** Decoding starts here: the tokens of the last piece given, which fix the spacing of the next. */
  #prefix = 0;
  /** Tokens before this one have been given as pieces. */
  #read: number;

  /** `context`: tokens that come before the stream (a prompt), decoded only to place the first piece. */
  constructor(private readonly model: LlamaModel, context: readonly Token[] = []) {
    this.#tokens = context.slice(-WINDOW);
    this.#read = this.#tokens.length;
  }

  #text(from: number, to: number): string {
    return this.model.detokenize(this.#tokens.slice(from, to), false);
  }

  /** The piece of the next token; "" while it ends inside a character, which the next token completes. */
  push(token: Token): string {
    this.#tokens.push(token);
    return this.#take(false);
  }

  /** Whatever is held back at the end of the stream (an unfinished character), to add to its last piece. */
  flush(): string {
    return this.#take(true);
  }

  #take(final: boolean): string {
    if (this.#read === this.#tokens.length) return "";
    const before = this.#text(this.#prefix, this.#read);
    const now = this.#text(this.#prefix, this.#tokens.length);
    if (now.length <= before.length || (!final && now.endsWith("\uFFFD"))) return "";
    // Only the tokens of this piece are kept as the next one's context.
    this.#tokens = this.#tokens.slice(this.#read);
    this.#prefix = 0;
    this.#read = this.#tokens.length;
    return now.slice(before.length);
  }
}

/** A prompt's tokens as text is decoded from them: without a leading BOS, which has no text of its own. */
export function withoutBos(model: LlamaModel, tokens: readonly Token[]): readonly Token[] {
  return tokens.length > 0 && tokens[0] === model.tokens.bos ? tokens.slice(1) : tokens;
}

/** The last few tokens before position `end`, as node-llama-cpp's detokenize takes them to place a piece. */
export const recentTokens = (tokens: readonly Token[], end: number, start = 0): Token[] =>
  tokens.slice(Math.max(start, end - WINDOW), end) as Token[];
