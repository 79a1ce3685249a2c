// The profiles listed at a start, read one at a time in the background (each is up to tens of megabytes), in
// the store's list order — except that one a request needs is read at once, beside the one under way if any
// (so at most two at a time), the rest of the queue waiting for both. A user asks for the profile they need
// and should not wait for the others listed before it (docs/storage.md). The background reads also leave the
// store and the event loop to requests for a short grace at start and after each read a request asked for (a
// request answered 503 while its profile was read comes back for it), and wait while `hold` says requests
// wait for other work (a calibration built after a start).

export class LoadQueue<T> {
  /** Those not started, in the order they will be. */
  private readonly queued: { name: string; start: (hurried: boolean) => void }[] = [];
  /** Reads under way. */
  private reads = 0;
  /** No background read starts before this time (performance.now()), unless `release`d. */
  private quietUntil: number;
  private released = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly graceMs = 0, private readonly hold: () => Promise<void> | undefined = () => undefined) {
    this.quietUntil = performance.now() + graceMs;
  }

  /** Queues `read` under `name`; resolves as it does, once it was started (in turn, or hurried) and has ended. */
  enqueue(name: string, read: () => Promise<T>): Promise<T> {
    let start!: (hurried: boolean) => void;
    const done = new Promise<T>((resolve, reject) => {
      start = (hurried) => {
        this.reads++;
        read().then(resolve, reject).finally(() => {
          this.reads--;
          if (hurried) this.quietUntil = Math.max(this.quietUntil, performance.now() + this.graceMs);
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
      if (this.reads > 0 || this.queued.length === 0) return;
      const wait = this.released ? 0 : this.quietUntil - performance.now();
      if (wait > 0) {
        clearTimeout(this.timer);
        this.timer = setTimeout(() => this.next(), wait).unref();
        return;
      }
      const held = this.hold();
      if (held) void held.then(() => this.next());
      else this.queued.shift()!.start(false);
    });
  }

  /** Every queued profile is needed (a listing): the background reads go on without any grace. */
  release(): void {
    this.released = true;
    this.next();
  }

  /** A request needs `name`: if it is still queued, it starts now. */
  hurry(name: string): void {
    const at = this.queued.findIndex((q) => q.name === name);
    if (at >= 0) this.queued.splice(at, 1)[0]!.start(true);
  }
}
