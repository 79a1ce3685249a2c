// Shared-prefix scoring on node-llama-cpp: the prefix common to every path is evaluated once on a root
// sequence, each branch of the token tree gets its own sequence, and all branches of one tree level are
// evaluated together so llama.cpp runs them in one batch. Every token whose KV state or next-token
// distribution is read is evaluated exactly once; a path's last token never is (docs/adapters.md,
// "Shared-prefix evaluation").
import type { LlamaContextSequence, Token } from "node-llama-cpp";
import { buildTokenTrie, evaluatedTokens, type TokenPath, type TrieNode } from "./tokenTrie.js";

export interface ScorerSequences {
  /** Holds the common prefix between calls, so a next call with the same context starts from it. */
  root: LlamaContextSequence;
  /** One per branch evaluated at once; their number bounds a wave. */
  workers: LlamaContextSequence[];
}

/** Probabilities under float32 softmax underflow to 0; a log-probability is floored here instead of -Infinity. */
export const MIN_LOG_PROB = Math.log(1e-45);

type CopyCapable = { _copyStateFromOtherSequence?: (other: LlamaContextSequence, upTo: number) => Promise<boolean> };

/**
 * Copies `from`'s first `length` tokens of KV state into `to`. node-llama-cpp 3.22 does this natively
 * (llama_memory_seq_cp) through a method it uses for its own decision contexts but does not export; when that
 * is missing or fails, the prefix is evaluated again, which is correct but slower.
 */
export async function copyPrefix(to: LlamaContextSequence, from: LlamaContextSequence, length: number): Promise<void> {
  await to.clearHistory();
  if (length === 0) return;
  const copy = (to as unknown as CopyCapable)._copyStateFromOtherSequence;
  if (typeof copy === "function" && (await copy.call(to, from, length))) return;
  await to.clearHistory();
  await to.evaluateWithoutGeneratingNewTokens(from.contextTokens.slice(0, length));
}

/** Brings the root sequence to exactly `tokens`, keeping whatever prefix of them it already holds. */
export async function alignRoot(root: LlamaContextSequence, tokens: readonly Token[]): Promise<void> {
  const same = root.compareContextTokens(tokens as Token[]).firstDifferentIndex;
  if (same < root.nextTokenIndex) await root.eraseContextTokenRanges([{ start: same, end: root.nextTokenIndex }]);
  if (same < tokens.length) await root.evaluateWithoutGeneratingNewTokens(tokens.slice(same) as Token[]);
}

function commonPrefixLength(paths: readonly TokenPath[]): number {
  const first = paths[0]!.tokens;
  let n = Math.min(...paths.map((p) => Math.min(p.tokens.length, p.scoreFrom - 1)));
  for (const p of paths) {
    let i = 0;
    while (i < n && p.tokens[i] === first[i]) i++;
    n = i;
  }
  return Math.max(0, n);
}

/** For each path, the natural-log probability of each of its scored tokens. */
export async function scorePaths(
  seqs: ScorerSequences, paths: readonly TokenPath[], signal?: AbortSignal,
): Promise<number[][]> {
  if (paths.length === 0) return [];
  const base = commonPrefixLength(paths);
  await alignRoot(seqs.root, paths[0]!.tokens.slice(0, base) as Token[]);
  const results: number[][] = new Array(paths.length);
  for (const wave of wavesOf(paths, base, seqs.workers.length)) {
    signal?.throwIfAborted();
    const scored = await scoreWave(seqs, wave.map((i) => paths[i]!), base, signal);
    wave.forEach((index, i) => (results[index] = scored[i]!));
  }
  return results;
}

/**
 * Path indexes in order, grouped so that each group's tree has at most `width` leaves: a tree level never
 * has more branches than leaves, so the group never needs more sequences than there are.
 */
function wavesOf(paths: readonly TokenPath[], base: number, width: number): number[][] {
  const waves: number[][] = [];
  let wave: number[] = [];
  let leaves = new Set<string>();
  paths.forEach((path, index) => {
    const key = evaluatedTokens(path, base).join(",");
    if (!leaves.has(key) && leaves.size === width) {
      waves.push(wave);
      wave = [];
      leaves = new Set();
    }
    leaves.add(key);
    wave.push(index);
  });
  if (wave.length > 0) waves.push(wave);
  return waves;
}

interface Pending {
  node: TrieNode;
  parent: LlamaContextSequence;
  /** The first child continues on its parent's sequence; the others start from a copy. */
  inherit: boolean;
}

/** A scored position's log-probabilities, by token. */
type Scored = Map<number, number>;

async function scoreWave(
  seqs: ScorerSequences, paths: readonly TokenPath[], base: number, signal?: AbortSignal,
): Promise<number[][]> {
  const { roots, scoredAt } = buildTokenTrie(paths, base);
  const rank = new Map(seqs.workers.map((s, i) => [s, i]));
  const free = [...seqs.workers];
  const logProbs = new Map<TrieNode, Map<number, Scored>>();
  let level: Pending[] = roots.map((node) => ({ node, parent: seqs.root, inherit: false }));
  while (level.length > 0) {
    signal?.throwIfAborted();
    // llama.cpp cuts a batch over separate KV streams into micro-batches of consecutive sequence ids with as
    // many tokens each, so the longest branches take the lowest ids: as few micro-batches as lengths.
    free.sort((a, b) => rank.get(a)! - rank.get(b)!);
    const fresh = level.filter((p) => !p.inherit).sort((a, b) => b.node.tokens.length - a.node.tokens.length);
    const assigned = new Map<Pending, LlamaContextSequence>(level.filter((p) => p.inherit).map((p) => [p, p.parent]));
    fresh.forEach((p) => assigned.set(p, free.shift()!));
    // Copies first: a first child appends to its parent's sequence, so siblings must copy before that.
    await Promise.all(fresh.map((p) => copyPrefix(assigned.get(p)!, p.parent, p.node.start)));
    await Promise.all(level.map(async (p) => logProbs.set(p.node, await evaluateNode(assigned.get(p)!, p.node))));
    const next: Pending[] = [];
    for (const p of level) {
      const seq = assigned.get(p)!;
      if (p.node.children.length === 0) free.push(seq);
      p.node.children.forEach((child, c) => next.push({ node: child, parent: seq, inherit: c === 0 }));
    }
    level = next;
  }
  return scoredAt.map((at, index) => at.map(([node, offset], k) => {
    const token = paths[index]!.tokens[paths[index]!.scoreFrom + k]!;
    return logProbs.get(node)?.get(offset)?.get(token) ?? MIN_LOG_PROB;
  }));
}

/**
 * Evaluates a node and reads, where scored, only the wanted tokens' logits, the top logit and the softmax
 * denominator: not the whole distribution, which node-llama-cpp would sort and hand over as a Map of the
 * vocabulary.
 */
async function evaluateNode(seq: LlamaContextSequence, node: TrieNode): Promise<Map<number, Scored>> {
  const input = node.tokens.map((t, i) => {
    const wanted = node.wanted.get(i);
    return wanted
      ? [t as Token, { generateNext: { token: true, totalLogitWeight: true, logits: { filter: { tokens: [...wanted] as Token[], includeSelected: true } } } }] as const
      : (t as Token);
  });
  const output = await seq.controlledEvaluate(input as Parameters<LlamaContextSequence["controlledEvaluate"]>[0]);
  const perOffset = new Map<number, Scored>();
  for (const [offset, wanted] of node.wanted) {
    const next = output[offset]?.next;
    const scored: Scored = new Map();
    for (const t of wanted) scored.set(t, logProbOf(next, t));
    perOffset.set(offset, scored);
  }
  return perOffset;
}

type Next = { token?: Token | null; logits?: Map<Token, number>; totalLogitWeight?: number } | undefined;

/**
 * The natural log of `token`'s probability exactly as node-llama-cpp's `probabilities` gives it: in float32,
 * exp(logit − top logit) / Σ exp(logit_i − top logit). The greedy sampler's token is the top one.
 */
export function logProbOf(next: Next, token: number): number {
  const top = next?.token == null ? undefined : next.logits?.get(next.token);
  const logit = next?.logits?.get(token as Token);
  const weight = next?.totalLogitWeight;
  if (top === undefined || logit === undefined || !weight) return MIN_LOG_PROB;
  const p = Math.fround(Math.fround(Math.exp(Math.fround(logit - top))) / weight);
  return p > 0 ? Math.max(Math.log(p), MIN_LOG_PROB) : MIN_LOG_PROB;
}
