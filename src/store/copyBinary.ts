// PostgreSQL's binary COPY format (the COPY documentation, "Binary Format"), read as it streams in: a 19-byte
// header (signature, flags, extension length), then per row a 16-bit column count and per column a 32-bit length
// (−1: NULL) and that many raw bytes, then −1 as the column count. Used for the one row of a checkpoint: its bytea
// arrives as its own bytes, copied once into its array, with no text encoding on either side.

const SIGNATURE = Buffer.from("PGCOPY\n\xff\r\n\0", "latin1");

/** The columns of the first row of a binary COPY (null for NULL), fed chunk by chunk; undefined when it has no row. */
export class CopyRowReader {
  private head = Buffer.alloc(0);
  private columns: (Uint8Array | null)[] = [];
  private count = -1;
  private value: Uint8Array | undefined;
  private filled = 0;
  private done = false;
  private empty = false;

  /** Takes the next chunk of the COPY's output. */
  push(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length && !this.done) {
      if (this.value) {
        const n = Math.min(chunk.length - at, this.value.length - this.filled);
        this.value.set(chunk.subarray(at, at + n), this.filled);
        this.filled += n;
        at += n;
        if (this.filled === this.value.length) this.endColumn(this.value);
        continue;
      }
      // Small parts (header, counts, lengths) gather here until they are whole.
      const want = this.count < 0 ? 19 + 2 : 4;
      const take = Math.min(chunk.length - at, want - this.head.length);
      this.head = Buffer.concat([this.head, chunk.subarray(at, at + take)]);
      at += take;
      if (this.head.length < want) continue;
      if (this.count < 0) this.startRow();
      else this.startColumn(this.head.readInt32BE(0));
      this.head = Buffer.alloc(0);
    }
  }

  /** The row's columns once the output has ended; throws when it ended before the row did. */
  row(): (Uint8Array | null)[] | undefined {
    if (this.empty) return undefined;
    if (!this.done) throw new Error("the COPY output ended inside its first row");
    return this.columns;
  }

  private startRow(): void {
    if (!this.head.subarray(0, 11).equals(SIGNATURE)) throw new Error("not PostgreSQL's binary COPY format");
    if (this.head.readInt32BE(15) !== 0) throw new Error("binary COPY header extensions are not read here");
    this.count = this.head.readInt16BE(19);
    if (this.count === -1) {
      this.empty = true;
      this.done = true;
    } else if (this.count === 0) this.done = true;
  }

  private startColumn(length: number): void {
    if (length < 0) return this.endColumn(null);
    this.value = new Uint8Array(length);
    this.filled = 0;
    if (length === 0) this.endColumn(this.value);
  }

  private endColumn(value: Uint8Array | null): void {
    this.columns.push(value);
    this.value = undefined;
    if (this.columns.length === this.count) this.done = true;
  }
}
