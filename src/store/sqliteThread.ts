// The event loop's side of the SQLite write thread (sqliteWorker.ts): requests as promises, in the order
// they were sent. A thread that stops without being closed (an uncaught error in it, a terminate)
// fails what it still had to answer with StoreUnavailableError (503 and retry-after, never a hang), and
// ThreadSlot starts a new one for the next caller. The thread holds the process open only while it owes
// an answer, as the synchronous driver never did.
import { Worker } from "node:worker_threads";
import { StoreUnavailableError } from "./errors.js";
import { rebuiltError, type Reply, type RequestBody, type WorkerData } from "./sqliteProtocol.js";

/** Compiled (dist/) or run from the source (tsx, vitest): the worker beside this module is then TypeScript too. */
const FROM_SOURCE = new URL(import.meta.url).pathname.endsWith(".ts");

/**
 * The write thread. Never with the parent's execArgv (vitest's are no loader a thread can use). From the source,
 * Node 20 runs no loader hook (an --import in execArgv neither) on a thread's entry file, so the entry is a
 * bootstrap that registers tsx's loader (a development dependency, there whenever the source runs) in the
 * thread and then imports sqliteWorker.ts.
 */
function startWorker(data: WorkerData): Worker {
  if (!FROM_SOURCE) return new Worker(new URL("./sqliteWorker.js", import.meta.url), { workerData: data, execArgv: [] });
  const tsx = JSON.stringify(import.meta.resolve("tsx/esm/api"));
  const worker = JSON.stringify(new URL("./sqliteWorker.ts", import.meta.url).href);
  return new Worker(`import(${tsx}).then((tsx) => { tsx.register(); return import(${worker}); });`, { eval: true, workerData: data, execArgv: [] });
}

interface Waiting {
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

export class SqliteThread {
  private readonly pending = new Map<number, Waiting>();
  private nextId = 1;
  private stopped: Error | undefined;
  private closing = false;
  private readonly exited: Promise<void>;

  private constructor(private readonly worker: Worker) {
    worker.on("message", (reply: Reply) => this.settle(reply));
    worker.on("error", (err) => this.fail(`the SQLite write thread failed: ${err.message}`, err));
    this.exited = new Promise((done) => worker.once("exit", (code) => {
      this.fail(`the SQLite write thread stopped (exit code ${code})`);
      done();
    }));
  }

  /** Starts a thread and opens its connection; rejects with the driver's error when the file cannot be opened. */
  static async start(data: WorkerData): Promise<SqliteThread> {
    const thread = new SqliteThread(startWorker(data));
    const opened = new Promise((resolve, reject) => thread.pending.set(0, { resolve, reject }));
    try {
      await opened;
    } catch (err) {
      await thread.worker.terminate();
      throw err;
    }
    thread.worker.unref();
    return thread;
  }

  get alive(): boolean {
    return this.stopped === undefined;
  }

  /** Sends one request; `transfer` lists buffers handed over to the thread (the caller no longer uses them). */
  request(body: RequestBody, transfer: readonly ArrayBuffer[] = []): Promise<unknown> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    if (this.pending.size === 0) this.worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      try {
        this.worker.postMessage({ ...body, id }, transfer as ArrayBuffer[]);
      } catch (err) {
        // A parameter the structured clone cannot carry (a function, a symbol): this request's error alone.
        this.pending.delete(id);
        if (this.pending.size === 0) this.worker.unref();
        reject(err);
      }
    });
  }

  private settle(reply: Reply): void {
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0 && !this.closing) this.worker.unref();
    if ("error" in reply) waiting.reject(rebuiltError(reply.error));
    else waiting.resolve(reply.value);
  }

  private fail(reason: string, error?: unknown): void {
    if (this.stopped) return;
    this.stopped = this.closing ? new Error("the SQLite write connection is closed") : new StoreUnavailableError(reason, { error });
    for (const waiting of this.pending.values()) waiting.reject(this.stopped);
    this.pending.clear();
  }

  /** Closes the connection once what was sent before is answered, and waits for the thread to end. */
  async close(): Promise<void> {
    if (this.stopped) return;
    this.closing = true;
    // Held open until the thread has ended, so a process that closes its store last still waits for it.
    this.worker.ref();
    await this.request({ op: "close" }).catch(() => undefined);
    await this.exited;
  }

  /** Stops the thread at once, as a crash would (for tests of that path). */
  async kill(): Promise<void> {
    await this.worker.terminate();
    await this.exited;
  }
}

/** The current write thread, started again when the previous one stopped. */
export class ThreadSlot {
  private current: Promise<SqliteThread>;
  private closed = false;

  /** Starts the first thread; the first caller waits for it (a failure to start is that caller's error). */
  constructor(private readonly data: WorkerData) {
    this.current = SqliteThread.start(data);
    this.current.catch(() => undefined);
  }

  async thread(): Promise<SqliteThread> {
    if (this.closed) throw new Error(`the SQLite store at ${this.data.file} is closed`);
    const current = this.current;
    const thread = await current.catch(() => undefined);
    if (thread?.alive) return thread;
    if (this.current === current) this.current = SqliteThread.start(this.data);
    return this.current;
  }

  async close(): Promise<void> {
    this.closed = true;
    const thread = await this.current.catch(() => undefined);
    await thread?.close();
  }
}
