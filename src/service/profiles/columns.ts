// Values with typed arrays in a checkpoint: the arrays go into the binary part as columns (each at a multiple of
// 8 bytes), the rest into the JSON header, a column named by {"$col": [type, offset, length]}. Maps, ±∞ and NaN,
// which JSON loses, are tagged too ({"$map": [[k, v], …]}, {"$num": "Infinity"}). Reading a column is one copy of
// its bytes, never a number at a time.

type Column = Float64Array | Int32Array | Uint8Array;
const TYPES = { f64: Float64Array, i32: Int32Array, u8: Uint8Array } as const;
type TypeName = keyof typeof TYPES;

const pad8 = (x: number) => (x + 7) & ~7;

export class ColumnWriter {
  private readonly parts: { offset: number; bytes: Uint8Array }[] = [];
  /** Bytes of the binary part so far. */
  size = 0;

  /** Appends a column; returns its offset in the binary part. */
  put(array: Column): number {
    const offset = this.size;
    this.parts.push({ offset, bytes: new Uint8Array(array.buffer, array.byteOffset, array.byteLength) });
    this.size = pad8(this.size + array.byteLength);
    return offset;
  }

  /** A JSON-able copy of `value`, its typed arrays put as columns. Functions and other objects are refused. */
  encode(value: unknown): unknown {
    if (typeof value === "number") return Number.isFinite(value) ? value : { $num: String(value) };
    if (value === null || typeof value !== "object") {
      if (typeof value === "function" || typeof value === "symbol" || typeof value === "bigint") throw new Error(`a ${typeof value} cannot be kept`);
      return value;
    }
    const type = value instanceof Float64Array ? "f64" : value instanceof Int32Array ? "i32" : value instanceof Uint8Array ? "u8" : undefined;
    if (type) return { $col: [type, this.put(value as Column), (value as Column).length] };
    if (ArrayBuffer.isView(value)) throw new Error(`a ${value.constructor.name} cannot be kept`);
    if (value instanceof Map) return { $map: [...value].map(([k, v]) => [this.encode(k), this.encode(v)]) };
    if (Array.isArray(value)) return value.map((v) => this.encode(v));
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) throw new Error(`a ${(value as object).constructor?.name ?? "object"} cannot be kept`);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = this.encode(v);
    return out;
  }

  /**
   * Writes the binary part at `start` of `data` (which must have room for `size` bytes there), `slice` bytes at a
   * time with `pause()` awaited between two slices: a checkpoint's columns are tens of megabytes at a million
   * examples, and copying them in one go stalled every request for a fifth of a second. The columns put must not
   * change meanwhile (pools only append beyond the rows put; calibrated values are replaced, never changed).
   */
  async writeInto(data: Uint8Array, start: number, slice: number, pause: () => Promise<void>): Promise<void> {
    let done = 0;
    for (const part of this.parts) {
      for (let at = 0; at < part.bytes.length; at += slice) {
        const end = Math.min(part.bytes.length, at + slice);
        data.set(part.bytes.subarray(at, end), start + part.offset + at);
        done += end - at;
        if (done >= slice) {
          done = 0;
          await pause();
        }
      }
    }
  }
}

export class ColumnReader {
  /** `data` holds the binary part from byte `start`. */
  constructor(private readonly data: Uint8Array, private readonly start: number) {}

  /**
   * The column at `offset`: a view of the checkpoint's bytes when they are aligned for the type (the pools, which
   * only ever append into new arrays), else — or when `copy` — a copy that owns its memory.
   */
  column<T extends Column>(type: TypeName, offset: number, count: number, copy = false): T {
    const Type = TYPES[type];
    const at = this.data.byteOffset + this.start + offset;
    if (!copy && at % Type.BYTES_PER_ELEMENT === 0) return new Type(this.data.buffer as ArrayBuffer, at, count) as T;
    // Uint8Array's slice, a copy (a Buffer's slice is a view).
    const bytes = Uint8Array.prototype.slice.call(this.data, this.start + offset, this.start + offset + count * Type.BYTES_PER_ELEMENT);
    return new Type(bytes.buffer, bytes.byteOffset, count) as T;
  }

  /**
   * The value `encode` made, its columns copied (calibrated objects own their arrays). Objects are left unfrozen:
   * an engine that extends a calibration in place must be able to extend a restored one.
   */
  decode(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((v) => this.decode(v));
    if (value === null || typeof value !== "object") return value;
    const o = value as Record<string, unknown>;
    if ("$num" in o) return Number(o.$num);
    if ("$col" in o) {
      const [type, offset, count] = o.$col as [TypeName, number, number];
      return this.column(type, offset, count, true);
    }
    if ("$map" in o) return new Map((o.$map as [unknown, unknown][]).map(([k, v]) => [this.decode(k), this.decode(v)]));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(o)) out[k] = this.decode(v);
    return out;
  }
}
