// Regenerates the bundled datasets in fixtures/ from their seeded generators (src/datasets/generators).
// Item i of a file depends only on the seed, so `--n` grows the story-cloze set without changing the
// items already there. Usage: npx tsx scripts/generate-datasets.ts [--n 2400] [--seed 20240601] [--out fixtures]
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { rngFromString } from "../src/conformal/numeric/rng.js";
import {
  arcMixedRecords, generateClaims, generateOrdinal, generatePairwise, generatePassFail, generateReference, generateStoryAnswers,
  generateStoryCloze, generateYesNo,
  type MultipleChoiceItem, toJsonLines,
} from "../src/datasets/index.js";

const { values } = parseArgs({
  options: {
    n: { type: "string", default: "2400" },
    seed: { type: "string", default: "20240601" },
    out: { type: "string", default: "fixtures" },
    help: { type: "boolean", short: "h" },
  },
  strict: true,
});
if (values.help) {
  process.stdout.write("usage: tsx scripts/generate-datasets.ts [--n N story-cloze items] [--seed S] [--out DIR]\n");
  process.exit(0);
}
const n = Number(values.n);
if (!Number.isInteger(n) || n < 1) throw new Error(`--n must be a positive integer, got "${values.n}"`);
const rngFor = (name: string) => rngFromString(`${values.seed}/${name}`);

/** MMLU's CSV layout (question,A,B,C,D,answer, no header), quoting every field. */
function toMmluCsv(items: MultipleChoiceItem[]): string {
  const q = (s: string) => `"${s.replaceAll('"', '""')}"`;
  return items
    .map((i) => [`${i.context} ${i.question ?? ""}`.trim(), ...Object.values(i.options), i.answer].map(q).join(","))
    .join("\n") + "\n";
}

const cloze = generateStoryCloze(n, rngFor("story-cloze"));
const files: [string, string][] = [
  ["story-cloze.jsonl", toJsonLines(cloze)],
  ["story-cloze-mmlu.csv", toMmluCsv(generateStoryCloze(300, rngFor("story-cloze-mmlu")))],
  ["ordinal-sizes.jsonl", toJsonLines(generateOrdinal(Math.max(1200, Math.round(n / 2)), rngFor("ordinal-sizes")))],
  ["claims.jsonl", toJsonLines(generateClaims(Math.max(800, Math.round(n / 3)), rngFor("claims")))],
  ["pass-fail.jsonl", toJsonLines(generatePassFail(Math.max(1200, Math.round(n / 2)), rngFor("pass-fail")))],
  ["yes-no.jsonl", toJsonLines(generateYesNo(Math.max(1200, Math.round(n / 2)), rngFor("yes-no")))],
  ["pairwise.jsonl", toJsonLines(generatePairwise(Math.max(800, Math.round(n / 3)), rngFor("pairwise")))],
  ["reference.jsonl", toJsonLines(generateReference(Math.max(600, Math.round(n / 4)), rngFor("reference")))],
  ["story-answers.jsonl", toJsonLines(generateStoryAnswers(Math.max(600, Math.round(n / 4)), rngFor("story-answers")))],
  // ARC's layout with 3, 4 and 5 options: the first 600 story-cloze items, reshaped.
  ["arc-mixed.jsonl", arcMixedRecords(cloze.slice(0, 600), rngFor("arc-mixed")).map((r) => JSON.stringify(r) + "\n").join("")],
];
await mkdir(values.out, { recursive: true });
for (const [name, text] of files) {
  await writeFile(join(values.out, name), text);
  process.stdout.write(`${join(values.out, name)}: ${text.trimEnd().split("\n").length} items\n`);
}
