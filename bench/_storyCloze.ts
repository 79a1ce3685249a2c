// The evidence step on the bundled story-cloze items at one thread, three ways measured in one run and
// alternated round by round: calibkit now, calibkit at 96e9605 (its adapter and evidence step imported from a
// worktree of that commit), and the floor: bare node-llama-cpp evaluating every token the items need (each
// prompt once, then each option's tokens but its last on a KV copy of the prompt), as many sequences at once
// as the adapter has, nothing read.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { getLlama, LlamaLogLevel, type LlamaContextSequence, type Token } from "node-llama-cpp";
import { createLlamaCppAdapter, type LlamaCppModelAdapter } from "../src/adapters/index.js";
import { loadDataset } from "../src/datasets/index.js";
import { cachedChoiceEvidence, preparePrompts, promptSettingsHash, resolvePromptSettings } from "../src/evidence/index.js";
import { choicesOf, promptItemOf } from "../src/run/index.js";

/**
 * A worktree of 96e9605 with node_modules linked, beside the checkout by default:
 * `git worktree add --detach ../base-96e9605 96e9605 && ln -s "$PWD/node_modules" ../base-96e9605/node_modules`.
 */
export const BASE_DIR = process.env.BASE_WORKTREE ?? resolve(import.meta.dirname ?? ".", "../../base-96e9605");

export interface StoryClozeFigures {
  items: number;
  tokensPerItem: number;
  rounds: number;
  itemsPerSecond: { now: number; base: number | null; floor: number };
  ranges: Record<string, string>;
}

type Step = () => Promise<unknown>;

export async function storyClozeEvidence(modelPath: string, items: number, rounds: number, parallel: number): Promise<StoryClozeFigures> {
  const dataset = choicesOf(await loadDataset("fixtures/story-cloze.jsonl")).items.slice(0, items).map((i) => promptItemOf(i, "set"));
  const steps: Record<string, Step> = {};
  const disposers: (() => Promise<void>)[] = [];

  const now = await createLlamaCppAdapter({ modelPath, gpu: false, embeddings: false, threads: 1, parallelSequences: parallel });
  disposers.push(() => now.dispose());
  const settings = await resolvePromptSettings({}, now);
  steps.now = () => cachedChoiceEvidence(dataset, {
    type: "set", adapter: now, level: "L3", prompt: settings, cache: null, fingerprint: now.fingerprint, promptHash: promptSettingsHash(settings, "set"), model: "bench",
  });

  let hasBase = false;
  if (existsSync(join(BASE_DIR, "src/adapters/index.ts"))) {
    hasBase = true;
    const A = await import(join(BASE_DIR, "src/adapters/index.ts")) as typeof import("../src/adapters/index.js");
    const E = await import(join(BASE_DIR, "src/evidence/index.ts")) as typeof import("../src/evidence/index.js");
    const R = await import(join(BASE_DIR, "src/run/index.ts")) as typeof import("../src/run/index.js");
    const D = await import(join(BASE_DIR, "src/datasets/index.ts")) as typeof import("../src/datasets/index.js");
    const base = await A.createLlamaCppAdapter({ modelPath, gpu: false, embeddings: false, threads: 1, parallelSequences: parallel });
    disposers.push(() => base.dispose());
    const baseItems = R.choicesOf(await D.loadDataset("fixtures/story-cloze.jsonl")).items.slice(0, items).map((i) => R.promptItemOf(i, "set"));
    const baseSettings = await E.resolvePromptSettings({}, base);
    steps.base = () => E.cachedChoiceEvidence(baseItems, {
      type: "set", adapter: base, level: "L3", prompt: baseSettings, cache: null, fingerprint: base.fingerprint, promptHash: "bench", model: "bench",
    });
  }

  // The floor's token trees, made before timing: each item's prompt, then each option's tokens but its last
  // (a one-token option adds nothing), as the scorer evaluates them.
  const prepared = await preparePrompts(dataset, settings, now);
  const trees = prepared.map((p) => {
    const head = now.tokenizePrompt(p.prefix) as Token[];
    const branches = p.continuations.map((c) => (now.tokenizePrompt(p.prefix + c) as Token[]).slice(head.length, -1)).filter((b) => b.length > 0);
    return { head, branches };
  });
  const tokensPerItem = trees.reduce((s, t) => s + t.head.length + t.branches.reduce((a, b) => a + b.length, 0), 0) / trees.length;
  const llama = await getLlama({ gpu: false, logLevel: LlamaLogLevel.error });
  const model = await llama.loadModel({ modelPath });
  const ctx = await model.createContext({ threads: 1, sequences: parallel, contextSize: (now as LlamaCppModelAdapter).contextSize });
  disposers.push(async () => {
    await ctx.dispose();
    await model.dispose();
  });
  const seqs: LlamaContextSequence[] = Array.from({ length: parallel }, () => ctx.getSequence());
  type Copy = { _copyStateFromOtherSequence(other: LlamaContextSequence, upTo: number): Promise<boolean> };
  // Items in waves of at most `parallel` sequences (one per branch); prompts in one batch, then branches in
  // one batch, each sibling starting from a native KV copy of its prompt (llama_memory_seq_cp), as the scorer.
  steps.floor = async () => {
    let at = 0;
    while (at < trees.length) {
      const wave: { tree: (typeof trees)[number]; seqs: LlamaContextSequence[] }[] = [];
      let used = 0;
      while (at < trees.length && used + Math.max(1, trees[at]!.branches.length) <= parallel) {
        const n = Math.max(1, trees[at]!.branches.length);
        wave.push({ tree: trees[at]!, seqs: seqs.slice(used, used + n) });
        used += n;
        at++;
      }
      await Promise.all(wave.map(async (w) => {
        await Promise.all(w.seqs.map((s) => s.clearHistory()));
        await w.seqs[0]!.evaluateWithoutGeneratingNewTokens(w.tree.head);
      }));
      await Promise.all(wave.map((w) => Promise.all(w.seqs.slice(1).map((s) => (s as unknown as Copy)._copyStateFromOtherSequence(w.seqs[0]!, w.tree.head.length)))));
      await Promise.all(wave.flatMap((w) => w.tree.branches.map((b, i) => w.seqs[i]!.evaluateWithoutGeneratingNewTokens(b))));
    }
  };

  const names = Object.keys(steps);
  const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (const n of names) await steps[n]!(); // warm-up
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < names.length; k++) {
      const n = names[(r + k) % names.length]!;
      const t0 = performance.now();
      await steps[n]!();
      times[n]!.push(performance.now() - t0);
    }
  }
  for (const d of disposers.reverse()) await d();
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const rate = (n: string) => dataset.length / (median(times[n]!) / 1000);
  return {
    items: dataset.length, tokensPerItem, rounds,
    itemsPerSecond: { now: rate("now"), base: hasBase ? rate("base") : null, floor: rate("floor") },
    ranges: Object.fromEntries(names.map((n) => [n, `${(dataset.length / (Math.max(...times[n]!) / 1000)).toFixed(0)}–${(dataset.length / (Math.min(...times[n]!) / 1000)).toFixed(0)}`])),
  };
}
