// The pure parts of serve-model: settled streaming text, the sequence pool, the nucleus sampler, and how a
// rejected request names its parameter.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chatCompletionRequestSchema, completionRequestSchema, requestIssue } from "../../src/api/index.js";
import { cutAtStop, drawToken, seededRng } from "../../src/adapters/seededSampler.js";
import { SequencePool } from "../../src/adapters/sequencePool.js";
import { SettledText } from "../../src/adapters/serveModel/sse.js";

describe("settled streaming text", () => {
  it("holds back a possible stop string and an unfinished character, then releases them", () => {
    const s = new SettledText(["END"]);
    expect(s.next("Hello E")).toBe("Hello ");
    expect(s.next("Hello EN")).toBe("");
    expect(s.next("Hello ENx")).toBe("ENx");
    expect(s.next("Hello ENx caf\uFFFD")).toBe(" caf");
    expect(s.next("Hello ENx café")).toBe("é");
    expect(s.rest("Hello ENx café")).toBe("");
  });

  it("streams pieces that always join to the final text", () => {
    fc.assert(fc.property(
      fc.array(fc.constantFrom("a", "b", "c", " ", "\uFFFD"), { maxLength: 40 }),
      fc.array(fc.stringMatching(/^[abc ]{1,4}$/), { maxLength: 3 }),
      (pieces, stop) => {
        // Generated text grows by pieces; an unfinished character (U+FFFD) is replaced by the next piece.
        const s = new SettledText(stop);
        let text = "";
        let sent = "";
        let final = "";
        for (const p of pieces) {
          text = text.endsWith("\uFFFD") ? text.slice(0, -1) + (p === "\uFFFD" ? "é\uFFFD" : `é${p}`) : text + p;
          const cut = cutAtStop(text, stop);
          final = cut.text;
          sent += s.next(final);
          if (cut.stopped) break;
        }
        sent += s.rest(final);
        expect(sent).toBe(final);
      },
    ), { numRuns: 500 });
  });
});

describe("sequence pool", () => {
  it("hands out one sequence each, makes an exclusive call wait for all, and first come first served", async () => {
    const pool = new SequencePool(["a", "b"]);
    const first = await pool.acquire(false);
    const second = await pool.acquire(false);
    expect([first.seqs, second.seqs]).toEqual([["a"], ["b"]]);
    const order: string[] = [];
    const exclusive = pool.acquire(true).then((l) => (order.push("all"), l));
    const later = pool.acquire(false).then((l) => (order.push("one"), l));
    expect(pool.waiting).toBe(2);
    first.release();
    await new Promise((r) => setTimeout(r, 5));
    expect(order).toEqual([]);
    second.release();
    const all = await exclusive;
    expect(all.seqs.sort()).toEqual(["a", "b"]);
    all.release();
    (await later).release();
    expect(order).toEqual(["all", "one"]);
    expect([pool.busy, pool.waiting]).toEqual([0, 0]);
  });

  it("gives up a waiting place when its signal aborts", async () => {
    const pool = new SequencePool(["a"]);
    const held = await pool.acquire(false);
    const controller = new AbortController();
    const waiting = pool.acquire(false, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toBeDefined();
    expect(pool.waiting).toBe(0);
    held.release();
    expect((await pool.acquire(false)).seqs).toEqual(["a"]);
  });
});

describe("nucleus sampling", () => {
  const pairs: [number, number][] = [[0, Math.log(0.5)], [1, Math.log(0.3)], [2, Math.log(0.2)]];

  it("with top_p 1 draws as before, and with a tiny top_p only the most probable token", () => {
    const a = seededRng(3);
    const b = seededRng(3);
    for (let i = 0; i < 50; i++) expect(drawToken(pairs, 1, a)).toBe(drawToken(pairs, 1, b, 1));
    const r = seededRng(4);
    for (let i = 0; i < 50; i++) expect(drawToken(pairs, 1, r, 1e-6)).toBe(0);
  });

  it("keeps the smallest set reaching top_p: 0.8 keeps tokens 0 and 1 in proportion", () => {
    const r = seededRng(5);
    const counts = [0, 0, 0];
    const N = 20_000;
    for (let i = 0; i < N; i++) counts[drawToken(pairs, 1, r, 0.8)]!++;
    expect(counts[2]).toBe(0);
    // p(0 | nucleus) = 0.5 / 0.8 = 0.625; 4 standard errors at N = 20 000 is ±0.014.
    expect(Math.abs(counts[0]! / N - 0.625)).toBeLessThan(0.014);
  });
});

describe("a rejected request names its parameter", () => {
  const issue = (schema: typeof chatCompletionRequestSchema | typeof completionRequestSchema, body: unknown) => {
    const parsed = schema.safeParse(body);
    return parsed.success ? undefined : requestIssue(parsed.error);
  };
  const messages = [{ role: "user", content: "hi" }];

  it("as OpenAI does: unknown, unsupported and invalid parameters", () => {
    expect(issue(chatCompletionRequestSchema, { messages, top_k: 2 })).toMatchObject({ param: "top_k", code: "unknown_parameter" });
    expect(issue(chatCompletionRequestSchema, { messages, tools: [{}] })).toMatchObject({ param: "tools", code: "unsupported_parameter" });
    expect(issue(chatCompletionRequestSchema, { messages: [{ role: "tool", content: "x", tool_call_id: "1" }] })).toMatchObject({ param: "messages[0].role" });
    expect(issue(chatCompletionRequestSchema, { messages, top_logprobs: 3 })).toMatchObject({ param: "top_logprobs" });
    expect(issue(chatCompletionRequestSchema, { messages, max_tokens: 5, max_completion_tokens: 6 })).toMatchObject({ param: "max_completion_tokens" });
    expect(issue(completionRequestSchema, { prompt: "x", best_of: 3 })).toMatchObject({ param: "best_of", code: "unsupported_parameter" });
    expect(issue(completionRequestSchema, { prompt: "x", stream_options: { include_usage: true } })).toMatchObject({ param: "stream_options" });
  });

  it("accepts null as absent and the no-op values of unsupported parameters", () => {
    const body = { messages, tools: [], tool_choice: "none", response_format: { type: "text" }, store: false, max_tokens: null, seed: null, modalities: ["text"] };
    expect(issue(chatCompletionRequestSchema, body)).toBeUndefined();
  });
});
