// A radix tree over token paths, so that every token shared by several prompts is evaluated once.
// Pure data: the llama.cpp scorer walks it level by level, one sequence per branch.

export interface TokenPath {
  tokens: readonly number[];
  /** Index of the first scored token; tokens before it are prompt. At least 1. */
  scoreFrom: number;
}

export interface TrieNode {
  id: number;
  /** Absolute position of `tokens[0]` in the full path. */
  start: number;
  tokens: number[];
  children: TrieNode[];
  /** Offsets within `tokens` whose next-token distribution some path scores. */
  needed: Set<number>;
}

/** Where each path's tokens live: for absolute position p, `positions[p - base]` = [node, offset]. */
export interface PathLayout {
  positions: [TrieNode, number][];
}

/** Builds the tree of the paths' tokens after `base` (the prefix shared by all, evaluated elsewhere). */
export function buildTokenTrie(paths: readonly TokenPath[], base: number): { roots: TrieNode[]; layouts: PathLayout[] } {
  let nextId = 0;
  const newId = () => nextId++;
  const roots: TrieNode[] = [];
  for (const path of paths) {
    let siblings = roots;
    let p = base;
    while (p < path.tokens.length) {
      const tok = path.tokens[p]!;
      let node = siblings.find((n) => n.tokens[0] === tok);
      if (!node) {
        node = { id: newId(), start: p, tokens: path.tokens.slice(p) as number[], children: [], needed: new Set() };
        siblings.push(node);
        break;
      }
      let i = 0;
      while (i < node.tokens.length && p + i < path.tokens.length && node.tokens[i] === path.tokens[p + i]) i++;
      if (i < node.tokens.length && p + i < path.tokens.length) splitNode(node, i, newId);
      p += i;
      siblings = node.children;
    }
  }
  // Positions are laid out only once the tree is final, because a later path may split a node.
  const layouts = paths.map((path) => {
    const positions: [TrieNode, number][] = [];
    let siblings = roots;
    let p = base;
    while (p < path.tokens.length) {
      const node = siblings.find((n) => n.tokens[0] === path.tokens[p])!;
      for (let k = 0; k < node.tokens.length && p < path.tokens.length; k++, p++) positions.push([node, k]);
      siblings = node.children;
    }
    return { positions };
  });
  paths.forEach((path, index) => {
    const layout = layouts[index]!;
    for (let k = Math.max(path.scoreFrom, base + 1); k < path.tokens.length; k++) {
      const [node, offset] = layout.positions[k - 1 - base]!;
      node.needed.add(offset);
    }
  });
  return { roots, layouts };
}

function splitNode(node: TrieNode, at: number, newId: () => number): void {
  const tail: TrieNode = {
    id: newId(), start: node.start + at, tokens: node.tokens.slice(at), children: node.children, needed: new Set(),
  };
  node.tokens = node.tokens.slice(0, at);
  node.children = [tail];
}
