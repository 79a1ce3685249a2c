// The evidence step on the bundled story-cloze items at one thread, three ways measured in one run and
// alternated round by round: calibkit now, calibkit at 96e9605 (its adapter and evidence step imported from a
// worktree of that commit), and the floor: bare node-llama-cpp evaluating every token the items need (each
// prompt once, then each option's tokens but its last on a KV copy of the prompt), as many sequences at once
// as the adapter has, nothing read. Beside them, the same items through a batched scoring baseline in the manner
// of lm-evaluation-harness's `hf` backend (bench/_numpyScorer.py: numpy, one thread, batches of 64), given
// calibkit's token ids, its log-likelihoods first checked against calibkit's.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { getLlama, LlamaLogLevel, type LlamaContextSequence, type LlamaModel, type Token } from "node-llama-cpp";
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
  itemsPerSecond: { now: number; base: number | null; floor: number; numpy: number | null };
  ranges: Record<string, string>;
  /**
   * The numpy baseline's log-likelihoods (every item × option) against llama.cpp's float32 path (flash attention
   * off, float32 KV cache: the same arithmetic) and against calibkit's (flash attention with its float16 KV cache
   * and accumulator, which round); how many items both give the same most likely option. Null when not run.
   */
  numpyCheck: { exact: number; calibkit: number; sameBest: number; items: number } | null;
  /** Why the numpy baseline is missing, when it is. */
  numpyMissing?: string;
}

/** Largest tolerated |llama.cpp float32 − numpy| log-likelihood: beyond it the two do not compute the same model. */
const AGREEMENT = 1e-2;

/**
 * bench/_numpyScorer.py as a child process: loaded once, then one whole pass per `run`, so it alternates with
 * the other variants round by round. One BLAS thread, as the rest of the bench.
 */
async function numpyScorer(modelPath: string, requests: [number[], number[]][]): Promise<{ pass(check: boolean): Promise<{ ms: number; logliks?: number[] }>; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "calibkit-bench-numpy-"));
  const file = join(dir, "requests.json");
  writeFileSync(file, JSON.stringify({ requests, batch: 64 }));
  const one = { OPENBLAS_NUM_THREADS: "1", OMP_NUM_THREADS: "1", MKL_NUM_THREADS: "1" };
  const child = spawn("python3", [resolve(import.meta.dirname ?? ".", "_numpyScorer.py"), modelPath, file], { env: { ...process.env, ...one }, stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async (): Promise<string> => {
    const { value, done } = await lines.next();
    if (done) throw new Error("bench/_numpyScorer.py exited early");
    return value as string;
  };
  const spawned = new Promise<void>((ok, fail) => (child.once("spawn", ok), child.once("error", fail)));
  await spawned;
  if ((await next()) !== "ready") throw new Error("bench/_numpyScorer.py did not start");
  return {
    async pass(check) {
      child.stdin!.write(check ? "check\n" : "run\n");
      return JSON.parse(await next()) as { ms: number; logliks?: number[] };
    },
    async close() {
      child.stdin!.end("quit\n");
      await new Promise((ok) => (child.exitCode === null ? child.once("exit", ok) : ok(null)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

type Step = () => Promise<unknown>;

/**
 * Each request's continuation log-likelihood from llama.cpp with flash attention off and a float32 KV cache (the
 * arithmetic numpy does), one request per sequence, `width` at a time.
 */
async function float32LogLikelihoods(model: LlamaModel, requests: readonly [number[], number[]][], width: number): Promise<number[]> {
  const longest = Math.max(...requests.map(([c, k]) => c.length + k.length));
  const ctx = await model.createContext({ threads: 1, sequences: width, contextSize: longest, flashAttention: false, experimentalKvCacheKeyType: "F32", experimentalKvCacheValueType: "F32" });
  const seqs = Array.from({ length: width }, () => ctx.getSequence());
  const out: number[] = new Array(requests.length);
  for (let at = 0; at < requests.length; at += width) {
    await Promise.all(requests.slice(at, at + width).map(async ([head, cont], i) => {
      const seq = seqs[i]!;
      await seq.clearHistory();
      const input = [...head, ...cont].slice(0, -1).map((t, p) => (p >= head.length - 1 ? [t as Token, { generateNext: { probabilities: true } }] : (t as Token)));
      const result = await seq.controlledEvaluate(input as Parameters<LlamaContextSequence["controlledEvaluate"]>[0]);
      out[at + i] = cont.reduce((s, t, k) => s + Math.log(result[head.length - 1 + k]!.next!.probabilities!.get(t as Token)!), 0);
    }));
  }
  await ctx.dispose();
  return out;
}

/** Items (options in runs of `counts`) on which both score lists rank the same option first. */
function sameBest(a: readonly number[], b: readonly number[], counts: readonly number[]): number {
  let at = 0, same = 0;
  for (const n of counts) {
    const best = (xs: readonly number[]) => xs.slice(at, at + n).reduce((j, x, i, all) => (x > all[j]! ? i : j), 0);
    if (best(a) === best(b)) same++;
    at += n;
  }
  return same;
}

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
  // The numpy baseline's requests, one per item × option as lm-eval makes them: the prompt's tokens and the
  // option's, tokenised jointly as the adapter does (bench/_numpyScorer.py groups those that share a forward).
  const requests: [number[], number[]][] = prepared.flatMap((p) => {
    const head = now.tokenizePrompt(p.prefix, p.rendered);
    return p.continuations.map((c): [number[], number[]] => {
      const joint = now.tokenizePrompt(p.prefix + c, p.rendered);
      if (joint.length <= head.length || head.some((t, i) => joint[i] !== t)) throw new Error(`item ${p.id}: joint tokenisation changes the prompt's tokens`);
      return [head, joint.slice(head.length)];
    });
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
  let numpyCheck: StoryClozeFigures["numpyCheck"] = null;
  let numpyMissing: string | undefined;
  const scorer = await numpyScorer(modelPath, requests).catch((err: unknown) => {
    numpyMissing = err instanceof Error ? err.message : String(err);
    return null;
  });
  if (scorer) {
    disposers.push(() => scorer.close());
    const ours = (await now.scoreContinuations(prepared.map((p) => ({ prefix: p.prefix, continuations: p.continuations, rendered: p.rendered })))).flat();
    const theirs = (await scorer.pass(true)).logliks!;
    const exact = await float32LogLikelihoods(model, requests, parallel);
    const maxDiff = (a: number[]) => Math.max(...a.map((x, i) => Math.abs(x - theirs[i]!)));
    numpyCheck = { exact: maxDiff(exact), calibkit: maxDiff(ours), sameBest: sameBest(ours, theirs, prepared.map((p) => p.continuations.length)), items: prepared.length };
    if (!(numpyCheck.exact <= AGREEMENT)) {
      throw new Error(`bench/_numpyScorer.py disagrees with llama.cpp's float32 path: max |Δ log-likelihood| ${numpyCheck.exact} > ${AGREEMENT}`);
    }
    steps.numpy = async () => scorer.pass(false);
  }
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
    itemsPerSecond: { now: rate("now"), base: hasBase ? rate("base") : null, floor: rate("floor"), numpy: steps.numpy ? rate("numpy") : null },
    ranges: Object.fromEntries(names.map((n) => [n, `${(dataset.length / (Math.max(...times[n]!) / 1000)).toFixed(0)}–${(dataset.length / (Math.min(...times[n]!) / 1000)).toFixed(0)}`])),
    numpyCheck, ...(numpyMissing ? { numpyMissing } : {}),
  };
}
