// Writes the Parquet dataset fixtures of test/datasets/fixtures from their JSON Lines twins, in the
// schemas the Hugging Face Hub serves (Arrow-style: list<string> as a 3-level LIST, structs as groups,
// ClassLabel as int64, Snappy pages): cais/mmlu, allenai/ai2_arc, google-research-datasets/nq_open and
// mandarjoshi/trivia_qa (rc.nocontext).
//   npx tsx scripts/write-parquet-fixtures.ts
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parquetWriteBuffer } from "hyparquet-writer";

type Row = Record<string, unknown>;
type SchemaElement = Parameters<typeof parquetWriteBuffer>[0]["schema"] extends (infer S)[] | undefined ? S : never;

const dir = join(import.meta.dirname, "..", "test", "datasets", "fixtures");
const rowsOf = (name: string): Row[] =>
  readFileSync(join(dir, name), "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as Row);

const str = (name: string): SchemaElement => ({ name, type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "OPTIONAL" });
const list = (name: string): SchemaElement[] => [
  { name, repetition_type: "OPTIONAL", converted_type: "LIST", num_children: 1 },
  { name: "list", repetition_type: "REPEATED", num_children: 1 },
  str("element"),
];

function write(file: string, columns: { name: string; data: unknown[] }[], schema: SchemaElement[]): void {
  const buffer = parquetWriteBuffer({ columnData: columns as never, schema: [{ name: "schema", num_children: columns.length }, ...schema], createdBy: "calibkit fixtures" });
  writeFileSync(join(dir, file), new Uint8Array(buffer));
  console.log(`wrote ${file} (${buffer.byteLength} bytes, ${columns[0]!.data.length} rows)`);
}

const mmlu = rowsOf("mmlu.jsonl");
write("mmlu.parquet", [
  { name: "question", data: mmlu.map((r) => r.question) },
  { name: "subject", data: mmlu.map((r) => r.subject) },
  { name: "choices", data: mmlu.map((r) => r.choices) },
  { name: "answer", data: mmlu.map((r) => BigInt(r.answer as number)) },
], [str("question"), str("subject"), ...list("choices"), { name: "answer", type: "INT64", repetition_type: "OPTIONAL" }]);

const arc = rowsOf("arc.jsonl");
write("arc.parquet", [
  { name: "id", data: arc.map((r) => r.id) },
  { name: "question", data: arc.map((r) => r.question) },
  { name: "choices", data: arc.map((r) => r.choices) },
  { name: "answerKey", data: arc.map((r) => r.answerKey) },
], [str("id"), str("question"), { name: "choices", repetition_type: "OPTIONAL", num_children: 2 }, ...list("text"), ...list("label"), str("answerKey")]);

// google-research-datasets/nq_open: question, answer list<string>.
const nq = rowsOf("nq_open.jsonl");
write("nq_open.parquet", [
  { name: "question", data: nq.map((r) => r.question) },
  { name: "answer", data: nq.map((r) => r.answer) },
], [str("question"), ...list("answer")]);

// mandarjoshi/trivia_qa rc.nocontext: the answer struct as the Hub nests it (entity_pages and search_results left out).
const trivia = rowsOf("triviaqa.jsonl");
const answerKeys = ["aliases", "normalized_aliases", "matched_wiki_entity_name", "normalized_matched_wiki_entity_name", "normalized_value", "type", "value"];
write("triviaqa.parquet", [
  { name: "question", data: trivia.map((r) => r.question) },
  { name: "question_id", data: trivia.map((r) => r.question_id) },
  { name: "question_source", data: trivia.map((r) => r.question_source) },
  { name: "answer", data: trivia.map((r) => Object.fromEntries(answerKeys.map((k) => [k, (r.answer as Row)[k]]))) },
], [
  str("question"), str("question_id"), str("question_source"),
  { name: "answer", repetition_type: "OPTIONAL", num_children: answerKeys.length },
  ...list("aliases"), ...list("normalized_aliases"), ...answerKeys.slice(2).map(str),
]);
