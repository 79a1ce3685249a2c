// Parsed objects (JSON Lines lines, Parquet rows) → a dataset. Every object becomes an item or an error
// naming its line (or row) and field: calibkit's own records by their kind, published layouts
// (ARC, HellaSwag, …) by name or detected from the first record, or any layout through a field mapping.
import { basename } from "node:path";
import { DatasetError, type DatasetErrorLocation } from "../errors.js";
import type { Dataset, DatasetKind } from "../types.js";
import {
  detectGenerationLayout, detectLayout, generationLayoutNamed, generationOf, LAYOUT_NAMES, layoutNamed, mappedGenerationOf, mappedItemOf,
  type FieldMapping, type GenerationFieldMapping, type GenerationLayout, type Json, type Layout,
} from "./layouts/index.js";
import { claimsOf, kindOf, multipleChoiceOf, ordinalOf, pairwiseOf, passFailOf, RecordProblem, referenceOf, yesNoOf } from "./records.js";

export interface DatasetOptions {
  /** A name of LAYOUT_NAMES; default `auto` (calibkit's records, or a published layout detected from the first record). */
  layout?: string;
  /** Read records through this mapping instead of a named layout: multiple choice, or generation when it names `references`. */
  fields?: FieldMapping | GenerationFieldMapping;
}

const READERS = {
  multiple_choice: multipleChoiceOf, ordinal: ordinalOf, claims: claimsOf, pass_fail: passFailOf, yes_no: yesNoOf, pairwise: pairwiseOf, reference: referenceOf,
  generation: generationOf,
} as const;

/** One parsed object and where it sits: `line` in a text file, `row` in a Parquet file (1-based). */
export interface Positioned {
  position: number;
  record: unknown;
}

type Reader = { kind: DatasetKind; read: (r: Json, fallbackId: string) => unknown; what: string; native?: boolean; layout?: string };

const isGenerationMapping = (m: FieldMapping | GenerationFieldMapping): m is GenerationFieldMapping => "references" in m;

function chosenReader(options: DatasetOptions, file: string): Reader | undefined {
  const fields = options.fields;
  if (fields && isGenerationMapping(fields)) return { kind: "generation", read: (r, id) => mappedGenerationOf(r, fields, id), what: "the field mapping" };
  if (fields) return { kind: "multiple_choice", read: (r, id) => mappedItemOf(r, fields, id), what: "the field mapping" };
  const name = options.layout ?? "auto";
  if (name === "auto" || name === "calibkit") return undefined;
  if (name === "mmlu") return { kind: "multiple_choice", read: multipleChoiceOf, what: "the mmlu layout" };
  const generation = generationLayoutNamed(name);
  if (generation) return fromGenerationLayout(generation);
  const layout = layoutNamed(name);
  if (!layout) throw new DatasetError({ file, field: "layout" }, `unknown layout "${name}"; use one of ${LAYOUT_NAMES.join(", ")}`);
  return fromLayout(layout);
}

const fromLayout = (l: Layout): Reader => ({ kind: "multiple_choice", read: (r, id) => l.read(r, id), what: `the ${l.name} layout (${l.source})`, layout: l.name });
const fromGenerationLayout = (l: GenerationLayout): Reader => ({ kind: "generation", read: (r, id) => l.read(r, id), what: `the ${l.name} layout (${l.source})`, layout: l.name });

function nativeReader(r: Json, at: DatasetErrorLocation): Reader {
  const k = kindOf(r);
  if (k === undefined || !(k in READERS)) {
    throw new DatasetError(
      { ...at, field: "kind" },
      "cannot tell the record's kind: give options/choices (multiple choice), levels (ordinal), claims, candidates (pairwise), reference, references (generation), or answer pass/fail or yes/no, or name a layout",
    );
  }
  return { kind: k, read: READERS[k], what: `${k} records`, native: true };
}

export function importObjects(records: Iterable<Positioned>, file: string, unit: "line" | "row", options: DatasetOptions = {}): Dataset {
  const stem = basename(file).replace(/\.[^.]*$/, "");
  let reader = chosenReader(options, file);
  const auto = reader === undefined && (options.layout ?? "auto") === "auto";
  const items: unknown[] = [];
  const seen = new Set<string>();
  for (const { position, record } of records) {
    const at: DatasetErrorLocation = { file, [unit]: position };
    if (record === null || typeof record !== "object" || Array.isArray(record)) {
      throw new DatasetError(at, `each ${unit} must hold one object`);
    }
    const r = record as Json;
    if (reader === undefined) {
      const detected = auto ? detectLayout(r) : undefined;
      const generation = auto && !detected ? detectGenerationLayout(r) : undefined;
      reader = detected ? fromLayout(detected) : generation ? fromGenerationLayout(generation) : nativeReader(r, at);
    } else if (reader.native) {
      // calibkit's own records: one kind per file, checked on every record.
      const k = nativeReader(r, at).kind;
      if (k !== reader.kind) throw new DatasetError(at, `a ${k} record in a ${reader.kind} file (one kind per file)`);
    }
    try {
      const item = reader.read(r, `${stem}:${position}`) as { id: string };
      if (seen.has(item.id)) throw new RecordProblem("id", `duplicate id "${item.id}"`);
      seen.add(item.id);
      items.push(item);
    } catch (err) {
      if (err instanceof RecordProblem) {
        throw new DatasetError({ ...at, ...(err.field ? { field: err.field } : {}) }, `${err.message} (read as ${reader.what})`);
      }
      throw err;
    }
  }
  if (reader === undefined) throw new DatasetError({ file }, "the file holds no records");
  return { kind: reader.kind, items, source: file, ...(reader.layout ? { layout: reader.layout } : {}) } as Dataset;
}
