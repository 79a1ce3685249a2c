// Bad dataset input: always names the file, the 1-based line and the field, so a user can fix the row.
import { CalibkitError } from "../api/index.js";

export interface DatasetErrorLocation {
  file: string;
  /** 1-based line of the record (the first line of a multi-line CSV record). */
  line?: number;
  /** 1-based row of a record in a file without lines (Parquet). */
  row?: number;
  /** Field (column or JSON key) at fault, when one is. */
  field?: string;
}

export class DatasetError extends CalibkitError {
  override name = "DatasetError";
  readonly file: string;
  readonly line: number | undefined;
  readonly row: number | undefined;

  constructor(location: DatasetErrorLocation, problem: string, cause?: unknown) {
    const where = location.line !== undefined ? `${location.file}, line ${location.line}`
      : location.row !== undefined ? `${location.file}, row ${location.row}` : location.file;
    const field = location.field !== undefined ? `, field "${location.field}"` : "";
    super("DATASET_INVALID", `${where}${field}: ${problem}`, {
      ...(location.field !== undefined ? { field: location.field } : {}),
      ...(cause !== undefined ? { cause } : {}),
    });
    this.file = location.file;
    this.line = location.line;
    this.row = location.row;
  }
}
