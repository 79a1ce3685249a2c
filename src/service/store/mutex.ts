// Serialises async work per key (one profile's writers), so that a WAL append, the in-memory apply and the
// answer built from them happen as one step while other profiles proceed in parallel.
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `fn` after every earlier `run` on the same key has settled. */
  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.then(fn, fn);
    const tail = next.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await next;
    } finally {
      // Forget the key once nothing is queued behind us, so the map does not grow with every profile ever seen.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Resolves once every queued task has settled (used by close()). */
  async drain(): Promise<void> {
    await Promise.all([...this.tails.values()]);
  }
}
