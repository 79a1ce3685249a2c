// A radix tree over the tokens that scoring must evaluate, so that every token shared by several prompts is
// evaluated once. Pure data: the llama.cpp scorer walks it level by level, one sequence per branch.
// A path's last token is never evaluated: only the distributions before its scored tokens are read, so the
// tree holds each path without its last token, and a one-token option adds nothing to its prompt's node.

export interface TokenPath {
  tokens: readonly number[];
  /** Index of the first scored token; tokens before it are prompt. At least 1. */
  scoreFrom: number;
}

export interface TrieNode {
  /** Absolute position of `tokens[0]` in the full path. */
  start: number;
  tokens: number[];
  children: TrieNode[];
  /** Offset within `tokens` → the tokens whose probability as the next token some path scores there. */
  wanted: Map<number, Set<number>>;
}

/** For each path, where each scored token is predicted: `[node, offset]` per token from `scoreFrom`. */
export type ScoredAt = [TrieNode, number][];

/** The part of a path that must be evaluated, after `base` (the prefix shared by all, evaluated elsewhere). */
export function evaluatedTokens(path: TokenPath, base: number): readonly number[] {
  return path.tokens.length > path.scoreFrom ? path.tokens.slice(base, path.tokens.length - 1) : [];
}

/** Builds the tree of the paths' evaluated tokens after `base` (at most each path's `scoreFrom - 1`). */
export function buildTokenTrie(paths: readonly TokenPath[], base: number): { roots: TrieNode[]; scoredAt: ScoredAt[] } {
  const roots: TrieNode[] = [];
  for (const path of paths) {
    if (path.tokens.length <= path.scoreFrom) continue;
    const end = path.tokens.length - 1;
    let siblings = roots;
    let p = base;
    while (p < end) {
      const tok = path.tokens[p]!;
      let node = siblings.find((n) => n.tokens[0] === tok);
      if (!node) {
        siblings.push({ start: p, tokens: path.tokens.slice(p, end) as number[], children: [], wanted: new Map() });
        break;
      }
      let i = 0;
      while (i < node.tokens.length && p + i < end && node.tokens[i] === path.tokens[p + i]) i++;
      if (i < node.tokens.length && p + i < end) splitNode(node, i);
      p += i;
      siblings = node.children;
    }
  }
  // Located only once the tree is final, because a later path may split a node. A path may end inside a node
  // (another path continues it): the tokens after its end are evaluated for that other path.
  const scoredAt = paths.map((path) => {
    const at: ScoredAt = [];
    let siblings = roots;
    let p = base;
    let node: TrieNode | undefined;
    for (let k = path.scoreFrom; k < path.tokens.length; k++) {
      while (!node || k - 1 >= node.start + node.tokens.length) {
        const tok = path.tokens[p]!;
        node = siblings.find((n) => n.tokens[0] === tok)!;
        p = node.start + node.tokens.length;
        siblings = node.children;
      }
      const offset = k - 1 - node.start;
      at.push([node, offset]);
      let set = node.wanted.get(offset);
      if (!set) node.wanted.set(offset, (set = new Set()));
      set.add(path.tokens[k]!);
    }
    return at;
  });
  return { roots, scoredAt };
}

function splitNode(node: TrieNode, at: number): void {
  const tail: TrieNode = { start: node.start + at, tokens: node.tokens.slice(at), children: node.children, wanted: new Map() };
  node.tokens = node.tokens.slice(0, at);
  node.children = [tail];
}
