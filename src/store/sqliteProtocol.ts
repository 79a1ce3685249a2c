// The messages between the embedded engine on the event loop (sqlite.ts, sqliteThread.ts) and the thread
// that owns its write connection (sqliteWorker.ts). Errors cross as plain objects: a structured clone keeps no
// class, so the engine side rebuilds them with their driver code (SQLITE_FULL, SQLITE_CONSTRAINT_UNIQUE, …),
// which is what classifyStoreError and isUniqueViolation read.

export interface WorkerData {
  file: string;
  /** The driver's busy timeout: how long a statement waits for another process's lock, in ms. */
  busyMs: number;
}

export type Request =
  | { id: number; op: "all" | "run"; text: string; params: readonly unknown[] }
  /** One statement over many parameter rows: one message for a whole batch of rows. */
  | { id: number; op: "many"; text: string; rows: readonly (readonly unknown[])[] }
  | { id: number; op: "begin" | "commit" | "rollback" | "version" | "close" };

export type RequestBody = Request extends infer R ? (R extends Request ? Omit<R, "id"> : never) : never;

/** Id 0 answers the opening of the connection. */
export type Reply = { id: number; value: unknown } | { id: number; error: PlainError };

export interface PlainError {
  name: string;
  message: string;
  code?: string | undefined;
}

/** BLOBs from this size on cross between the threads by transfer rather than copy (a checkpoint's pools). */
export const TRANSFER_BYTES = 64 * 1024;

/** The ArrayBuffers among `values` that may be moved to the other thread: large, and wholly one view's. */
export function transferable(values: Iterable<unknown>): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  for (const v of values) {
    if (!(v instanceof Uint8Array) || v.byteLength < TRANSFER_BYTES) continue;
    if (v.byteOffset === 0 && v.buffer.byteLength === v.byteLength && v.buffer instanceof ArrayBuffer && !out.includes(v.buffer)) out.push(v.buffer);
  }
  return out;
}

/** The thread's error as an Error of the event loop's, with its driver code. */
export function rebuiltError(plain: PlainError): Error & { code?: string } {
  const err: Error & { code?: string } = new Error(plain.message);
  err.name = plain.name;
  if (plain.code !== undefined) err.code = plain.code;
  return err;
}
