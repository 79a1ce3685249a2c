// The profiles listed at a start, read one at a time in the background (each is up to tens of megabytes), in
// the store's list order — except that one a request needs is read at once, beside the one under way if any
// (so at most two at a time), the rest of the queue waiting for both. A user asks for the profile they need
// and should not wait for the others listed before it (docs/storage.md).

export class LoadQueue<T> {
  /** Those not started, in the order they will be. */
  private readonly queued: { name: string; start: () => void }[] = [];
  /** Reads under way. */
  private reads = 0;

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
      if (this.reads === 0) this.queued.shift()?.start();
    });
  }

  /** A request needs `name`: if it is still queued, it starts now. */
  hurry(name: string): void {
    const at = this.queued.findIndex((q) => q.name === name);
    if (at >= 0) this.queued.splice(at, 1)[0]!.start();
  }
}
