// Shared-prefix scoring on node-llama-cpp: the prefix common to every path is evaluated once on a root
// sequence, each branch of the token tree gets its own sequence (a copy of its parent's KV state), and all
// branches of one tree level are evaluated together so llama.cpp runs them in one batch. Every unique token
// is evaluated exactly once (docs/adapters.md, "Shared-prefix evaluation").
import type { LlamaContextSequence, Token } from "node-llama-cpp";
import { buildTokenTrie, type TokenPath, type TrieNode } from "./tokenTrie.js";

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
  const waveSize = seqs.workers.length;
  for (let from = 0; from < paths.length; from += waveSize) {
    signal?.throwIfAborted();
    const wave = paths.slice(from, from + waveSize);
    const scored = await scoreWave(seqs, wave, base, signal);
    scored.forEach((s, i) => (results[from + i] = s));
  }
  return results;
}

interface Pending {
  node: TrieNode;
  parent: LlamaContextSequence;
  /** The first child continues on its parent's sequence; the others start from a copy. */
  inherit: boolean;
}

async function scoreWave(
  seqs: ScorerSequences, paths: readonly TokenPath[], base: number, signal?: AbortSignal,
): Promise<number[][]> {
  const { roots, layouts } = buildTokenTrie(paths, base);
  const free = [...seqs.workers];
  const logProbs = new Map<number, Map<number, Map<Token, number>>>();
  let level: Pending[] = roots.map((node) => ({ node, parent: seqs.root, inherit: false }));
  while (level.length > 0) {
    signal?.throwIfAborted();
    // Copies first: a first child appends to its parent's sequence, so siblings must copy before that.
    const assigned = level.map((p) => (p.inherit ? p.parent : free.pop()!));
    await Promise.all(level.map((p, i) => (p.inherit ? undefined : copyPrefix(assigned[i]!, p.parent, p.node.start))));
    await Promise.all(level.map((p, i) => evaluateNode(assigned[i]!, p.node, logProbs)));
    const next: Pending[] = [];
    level.forEach((p, i) => {
      const seq = assigned[i]!;
      if (p.node.children.length === 0) free.push(seq);
      p.node.children.forEach((child, c) => next.push({ node: child, parent: seq, inherit: c === 0 }));
    });
    level = next;
  }
  return paths.map((path, index) => {
    const out: number[] = [];
    for (let k = path.scoreFrom; k < path.tokens.length; k++) {
      const [node, offset] = layouts[index]!.positions[k - 1 - base]!;
      out.push(logProbs.get(node.id)?.get(offset)?.get(path.tokens[k] as Token) ?? MIN_LOG_PROB);
    }
    return out;
  });
}

async function evaluateNode(
  seq: LlamaContextSequence, node: TrieNode, logProbs: Map<number, Map<number, Map<Token, number>>>,
): Promise<void> {
  const input = node.tokens.map((t, i) =>
    node.needed.has(i) ? ([t as Token, { generateNext: { probabilities: true } }] as const) : (t as Token));
  const output = await seq.controlledEvaluate(input as Parameters<LlamaContextSequence["controlledEvaluate"]>[0]);
  const perOffset = new Map<number, Map<Token, number>>();
  for (const offset of node.needed) {
    const wanted = offset < node.tokens.length - 1 ? [node.tokens[offset + 1]!] : node.children.map((c) => c.tokens[0]!);
    const probs = output[offset]?.next.probabilities;
    const map = new Map<Token, number>();
    for (const t of wanted) {
      const p = probs?.get(t as Token) ?? 0;
      map.set(t as Token, p > 0 ? Math.max(Math.log(p), MIN_LOG_PROB) : MIN_LOG_PROB);
    }
    perOffset.set(offset, map);
  }
  logProbs.set(node.id, perOffset);
}
