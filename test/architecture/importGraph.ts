// The import graph of a source tree, file by file, and the circles in it (Tarjan's strongly connected
// components, 1972). Imports are read with TypeScript's own pre-processor, so `import type`, `export … from`,
// `export * from`, bare `import "…"` and `import("…")` all count and a specifier inside a comment does not.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

const SOURCE = /\.(ts|mts|js|mjs)$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return SOURCE.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** The file a relative specifier names: `./x.js` is `x.ts` when that exists (NodeNext style), a folder its index. */
function resolveSpecifier(from: string, spec: string, files: ReadonlySet<string>): string | undefined {
  const target = resolve(dirname(from), spec);
  const candidates = [target, target.replace(/\.js$/, ".ts"), target.replace(/\.mjs$/, ".mts"), `${target}.ts`, join(target, "index.ts")];
  return candidates.find((c) => files.has(c));
}

/** Every file under `root` → the files under `root` it imports (relative specifiers only; packages are not files of the tree). */
export function importGraph(root: string): Map<string, string[]> {
  const files = sourceFiles(root);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const targets = new Set<string>();
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith(".")) continue;
      const target = resolveSpecifier(file, fileName, known);
      if (target) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** The strongly connected components with more than one file (or a file importing itself): each is a circle. */
export function stronglyConnected(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

/** One shortest circle through the component's first file, as the chain of imports that closes it. */
function circleThrough(graph: ReadonlyMap<string, readonly string[]>, component: readonly string[]): string[] {
  const inside = new Set(component);
  const start = component[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const v = queue[head]!;
    for (const w of graph.get(v) ?? []) {
      if (!inside.has(w)) continue;
      if (w === start) {
        const chain = [v];
        while (chain[0] !== start) chain.unshift(previous.get(chain[0]!)!);
        return [...chain, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start];
}

/**
 * The import circles under `root`, each written `a.ts → b.ts → a.ts (files: a.ts, b.ts)` with paths relative to
 * `root`: the chain shows one circle, the list every file of the tangle it belongs to.
 */
export function importCircles(root: string): string[] {
  const graph = importGraph(root);
  const name = (f: string) => relative(root, f).split(sep).join("/");
  return stronglyConnected(graph).map((component) => {
    const chain = circleThrough(graph, component).map(name).join(" → ");
    return component.length > 2 ? `${chain} (files: ${component.map(name).join(", ")})` : chain;
  });
}
