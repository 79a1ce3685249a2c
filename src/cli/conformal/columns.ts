// Records turned into the engine's columns as they are read: probabilities into one growing Float64Array
// (row-major; CSR starts kept for files whose records name different options), labels and group codes into
// Int32Arrays. Nothing per record is kept but numbers.
import { InputError, type FastRecord, type Rec, type Source } from "./records.js";
import { RecordScanner } from "./scan.js";

export function fail(src: Source, i: number, field: string, msg: string): never {
  throw new InputError(`${src.file}: ${src.where(i)}: field "${field}": ${msg}`);
}

export function finiteNumber(src: Source, i: number, field: string, v: unknown): number {
  if (typeof v !== "number" || !Number.isFinite(v)) fail(src, i, field, `must be a finite number, got ${JSON.stringify(v)}`);
  return v;
}

/** A label given as a name, or as a number whose decimal text is a name (levels such as -1, 0, 1). */
export function labelIn(src: Source, i: number, l: unknown, index: ReadonlyMap<string, number>, names: readonly string[]): number {
  const j = typeof l === "string" ? index.get(l) : typeof l === "number" && Number.isFinite(l) ? index.get(String(l)) : undefined;
  if (j === undefined) fail(src, i, "label", `must be one of ${JSON.stringify(names)}, got ${JSON.stringify(l)}`);
  return j;
}

/** Group codes shared by the calibration and test files; all records have a group or none has. */
export class Groups {
  readonly index = new Map<string, number>();
  readonly names: string[] = [];
  codes = new Int32Array(1024);
  count = 0;
  /** Undefined until the first calibration record says. */
  grouped: boolean | undefined;

  add(src: Source, i: number, r: Rec, calibration: boolean): void {
    this.addGroup(src, i, r.group, calibration);
  }

  /** A record's `group` value (undefined when it has none). */
  addGroup(src: Source, i: number, g: unknown, calibration: boolean): void {
    if (this.grouped === undefined) this.grouped = g !== undefined;
    if (!this.grouped) {
      if (g !== undefined) {
        fail(src, i, "group", calibration ? "every record needs a group or none does, and the first calibration record has none" : "the calibration records have no group");
      }
      return;
    }
    if (typeof g !== "string") fail(src, i, "group", g === undefined ? "missing: every record needs a group when the calibration records have one" : `must be a string, got ${JSON.stringify(g)}`);
    let c = this.index.get(g);
    if (c === undefined) {
      this.index.set(g, (c = this.names.length));
      this.names.push(g);
    }
    if (this.count === this.codes.length) this.codes = grow(this.codes);
    this.codes[this.count++] = c;
  }

  /** The codes added since `from`, as the engine's GroupCodes (names shared, so codes line up). */
  take(from: number): { codes: Int32Array; names: readonly string[] } | undefined {
    return this.grouped ? { codes: this.codes.slice(from, this.count), names: this.names } : undefined;
  }
}

function grow<T extends Int32Array | Float64Array>(a: T): T {
  const b = new (a.constructor as new (n: number) => T)(a.length * 2);
  b.set(a);
  return b;
}

/**
 * Probability rows keyed by name. `fixed` names (interval levels): every record must give exactly these.
 * Otherwise the first record's key order is the row order, and a record with other keys makes the file ragged.
 */
export class ProbabilityColumns {
  data = new Float64Array(16 * 1024);
  size = 0;
  starts = new Int32Array(1025);
  count = 0;
  labels = new Int32Array(1024);
  names: string[] | undefined;
  index: Map<string, number> | undefined;
  /** Per record, its own key list when the file is ragged (set records may name different options). */
  ragged: string[][] | undefined;

  constructor(fixed?: readonly string[]) {
    if (fixed) this.setNames([...fixed]);
  }

  private setNames(names: string[]): void {
    this.names = names;
    this.index = new Map(names.map((n, j) => [n, j]));
  }

  /** Adds the record's probabilities (and its label when `labelled`); returns the record's own names. */
  add(src: Source, i: number, r: Rec, labelled: boolean, fixed: boolean): readonly string[] {
    const m = r.probabilities;
    if (!m || typeof m !== "object" || Array.isArray(m)) fail(src, i, "probabilities", "must be an object mapping names to probabilities");
    const p = m as Rec;
    if (!this.names) this.setNames(Object.keys(p));
    const names = this.names!;
    if (names.length < 1) fail(src, i, "probabilities", "is empty");
    let same = true;
    let j = 0;
    for (const k in p) {
      if (j >= names.length || k !== names[j]) same = false;
      j++;
    }
    same &&= j === names.length;
    let own: readonly string[] = names;
    if (!same) {
      if (fixed) {
        const keys = Object.keys(p);
        if (keys.length !== names.length || keys.some((k) => !this.index!.has(k))) fail(src, i, "probabilities", `levels must be ${JSON.stringify(names)}`);
      } else {
        own = Object.keys(p);
        if (own.length < 1) fail(src, i, "probabilities", "is empty");
        this.ragged ??= Array.from({ length: this.count }, () => names);
      }
    }
    if (this.ragged) this.ragged.push(own as string[]);
    if (this.count + 1 >= this.starts.length) this.starts = grow(this.starts);
    if (this.count === this.labels.length) this.labels = grow(this.labels);
    while (this.size + own.length > this.data.length) this.data = grow(this.data);
    // Keys as written: their values in one call (a keyed read per name cost more than the parse of the number).
    const values = Object.values(p);
    for (let x = 0; x < own.length; x++) {
      const k = own[x]!;
      const v = same ? values[x] : p[k];
      if (typeof v !== "number" || !Number.isFinite(v)) fail(src, i, `probabilities.${k}`, `must be a finite number, got ${JSON.stringify(v)}`);
      if (v < 0) fail(src, i, `probabilities.${k}`, "must be ≥ 0");
      this.data[this.size + x] = v;
    }
    if (labelled) {
      const index = own === names ? this.index! : new Map(own.map((n, x) => [n, x]));
      this.labels[this.count] = labelIn(src, i, r.label, index, own);
    }
    this.starts[this.count] = this.size;
    this.size += own.length;
    this.count++;
    this.starts[this.count] = this.size;
    return own;
  }

  /** A record already read and checked by a RecordScanner over this file's names: the same as add() would store. */
  addScanned(values: Float64Array, label: number): void {
    if (this.ragged) this.ragged.push(this.names!);
    if (this.count + 1 >= this.starts.length) this.starts = grow(this.starts);
    if (this.count === this.labels.length) this.labels = grow(this.labels);
    while (this.size + values.length > this.data.length) this.data = grow(this.data);
    this.data.set(values, this.size);
    this.labels[this.count] = label;
    this.starts[this.count] = this.size;
    this.size += values.length;
    this.count++;
    this.starts[this.count] = this.size;
  }
}

/**
 * The fast reader of JSON Lines records into `cols` and `groups` (records.ts's FastRecord): lines of the
 * usual shape skip JSON.parse, others go through add(). The names are the file's once its first record is read.
 */
export function scannedInto(cols: ProbabilityColumns, groups: Groups, labelled: boolean, calibration: boolean): FastRecord {
  let scanner: RecordScanner | undefined | null = null;
  return (bytes, start, end, i, src) => {
    if (scanner === null) scanner = cols.names ? RecordScanner.for(cols.names, labelled) : undefined;
    if (!scanner?.scan(bytes, start, end)) return false;
    cols.addScanned(scanner.values, labelled ? scanner.label : 0);
    groups.addGroup(src, i, scanner.group, calibration);
    return true;
  };
}
