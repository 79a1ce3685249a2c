// RFC 4180 CSV records with the line each starts on, so an importer can name the line of a bad row.
// Quoted fields may hold commas, doubled quotes and newlines; CRLF and LF both end a record.
import { DatasetError } from "../errors.js";

export interface CsvRecord {
  /** 1-based line on which the record starts. */
  line: number;
  fields: string[];
}

/** Splits CSV text into records. Blank lines are skipped (they hold no data, so nothing is dropped). */
export function parseCsv(text: string, file: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = "";
  let quoted = false; // inside a quoted field
  let wasQuoted = false; // the current field opened with a quote
  let line = 1;
  let recordLine = 1;
  let quoteLine = 1;
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text; // drop a UTF-8 byte-order mark

  const endRecord = () => {
    fields.push(field);
    if (!(fields.length === 1 && fields[0] === "" && !wasQuoted)) records.push({ line: recordLine, fields });
    fields = [];
    field = "";
    wasQuoted = false;
  };

  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (quoted) {
      if (c === '"') {
        if (src[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === "\n") line++;
        field += c;
      }
      continue;
    }
    if (c === '"') {
      if (field !== "" || wasQuoted) {
        throw new DatasetError({ file, line, field: `column ${fields.length + 1}` }, "a quote inside an unquoted field (quote the whole field and double inner quotes)");
      }
      quoted = true;
      wasQuoted = true;
      quoteLine = line;
    } else if (c === ",") {
      fields.push(field);
      field = "";
      wasQuoted = false;
    } else if (c === "\r" && src[i + 1] === "\n") {
      // CRLF: the \n ends the record on the next step.
    } else if (c === "\n") {
      endRecord();
      line++;
      recordLine = line;
    } else if (wasQuoted) {
      throw new DatasetError({ file, line, field: `column ${fields.length + 1}` }, `text after a closing quote ("${c}")`);
    } else {
      field += c;
    }
  }
  if (quoted) throw new DatasetError({ file, line: quoteLine }, "a quoted field is never closed");
  if (field !== "" || fields.length > 0 || wasQuoted) endRecord();
  return records;
}
