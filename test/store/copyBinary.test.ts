// The binary COPY reader, fed the same output cut at every place: the same columns (NULLs, empty values and a
// large one), an output with no row, and an output that ends inside its row.
import { describe, expect, it } from "vitest";
import { CopyRowReader } from "../../src/store/copyBinary.js";

const header = Buffer.concat([Buffer.from("PGCOPY\n\xff\r\n\0", "latin1"), Buffer.alloc(8)]);
const int16 = (v: number) => { const b = Buffer.alloc(2); b.writeInt16BE(v); return b; };
const int32 = (v: number) => { const b = Buffer.alloc(4); b.writeInt32BE(v); return b; };
const column = (v: Uint8Array | null) => (v === null ? int32(-1) : Buffer.concat([int32(v.length), v]));
const output = (rows: (Uint8Array | null)[][]) => Buffer.concat([header, ...rows.flatMap((r) => [int16(r.length), ...r.map(column)]), int16(-1)]);

function read(out: Buffer, cuts: number[]) {
  const reader = new CopyRowReader();
  let at = 0;
  for (const cut of [...cuts, out.length]) {
    reader.push(out.subarray(at, cut));
    at = cut;
  }
  return reader.row();
}

describe("CopyRowReader", () => {
  const big = Uint8Array.from({ length: 300 }, (_, i) => (i * 37) % 256);
  const seq = Buffer.alloc(8);
  seq.writeBigInt64BE(123456789012n);
  const row = [seq, null, new Uint8Array(0), big];
  const out = output([row, [Buffer.from("second row, never read")]]);

  it("gives the first row's columns wherever the chunks are cut", () => {
    for (let cut = 0; cut <= out.length; cut++) {
      expect(read(out, [cut])).toEqual(row.map((v) => (v === null ? null : new Uint8Array(v))));
    }
    expect(read(out, Array.from({ length: out.length }, (_, i) => i))).toEqual(row.map((v) => (v === null ? null : new Uint8Array(v))));
  });

  it("gives undefined for an output with no row, and refuses one that ends inside its row or is not a COPY", () => {
    expect(read(output([]), [3, 20])).toBeUndefined();
    expect(() => read(out.subarray(0, out.length - 200), [])).toThrow(/ended inside its first row/);
    expect(() => read(Buffer.from("COPY? no, a text output of 30 bytes"), [])).toThrow(/not PostgreSQL's binary COPY format/);
  });
});
