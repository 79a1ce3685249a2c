// Prints the llama.cpp adapter's log-probabilities for the items of test/adapters/llamaScoring.test.ts, one
// item per call, from the src/ folder given (a worktree of another commit, to write its values into the test):
//   npx tsx scripts/score-items-at.ts /work/base-96e9605/src
import { join, resolve } from "node:path";

const src = resolve(process.argv[2] ?? "src");
const A = await import(join(src, "adapters/index.ts")) as typeof import("../src/adapters/index.js");
const adapter = await A.createLlamaCppAdapter({ modelPath: join(A.defaultModelsDir(), "stories260K.gguf"), gpu: false, embeddings: false, threads: 1 });
const ITEMS = [
  { prefix: "The sun was out and the sky was blue. Sam went outside to", continuations: [" duck", " play", " frog", " red"] },
  { prefix: "Max gave Lily a ball. Lily smiled. She said, \"Thank", continuations: [" drum", " green", " boat", " you"] },
  { prefix: "Lucy and her mom went to the school. They had fun at the", continuations: [" happy", " apple", " school", " proud"] },
  { prefix: "Once upon a time, there was a little girl named Lily. She loved to play with her", continuations: [" toys", " big red ball", " dog and cat", " doll"] },
  { prefix: "One day", continuations: [" the sun came out", " a cat", " the", " Tom went to the park"] },
];
for (const [i, item] of ITEMS.entries()) console.log(i, JSON.stringify((await adapter.scoreContinuations([item]))[0]));
await adapter.dispose();
