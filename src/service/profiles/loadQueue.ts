// The profiles listed at a start, read one at a time in the background (each is up to tens of megabytes), in
// the store's list order — except that one a request needs is read at once, beside the one under way if any
// (so at most two at a time), the rest of the queue waiting for both. A user asks for the profile they need
// and should not wait for the others listed before it (docs/storage.md). The background reads also wait while
// `hold` says requests wait for other work (a calibration built after a start), and begin only after a
// short grace at start (`release`), so that the first requests get the store to themselves.

export class LoadQueue<T> {
  /** Those not started, in the order they will be. */
  private readonly queued: { name: string; start: () => void }[] = [];
  /** Reads under way. */
  private reads = 0;
  private released = false;

  constructor(private readonly hold: () => Promise<void> | undefined = () => undefined) {}

  /** Queues `read` under `name`; resolves as it does, once it was started (in turn, or hurried) and has ended. */
  enqueue(name: string, read: () => Promise<T>): Promise<T> {
    let start!: () => void;
    const done = new Promise<T>((resolve, reject) => {
      start = () => {
        this.reads++;
        read().then(resolve, reject).finally(() => {
          this.reads--;
          this.next();
        });
      };
    });
    this.queued.push({ name, start });
    return done;
  }

  /**
   * Starts the next queued read once none is under way, each in a turn of its own, so that requests (which may
   * hurry another) are seen between them even where the store answers at once (SQLite reads on the event loop).
   */
  next(): void {
    setImmediate(() => {
      if (!this.released || this.reads > 0 || this.queued.length === 0) return;
      const held = this.hold();
      if (held) void held.then(() => this.next());
      else this.queued.shift()!.start();
    });
  }

  /** The background reads may begin (at the end of the grace, or when a request needs every profile). */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.next();
  }

  /** A request needs `name`: if it is still queued, it starts now. */
  hurry(name: string): void {
    const at = this.queued.findIndex((q) => q.name === name);
    if (at >= 0) this.queued.splice(at, 1)[0]!.start();
  }
}
