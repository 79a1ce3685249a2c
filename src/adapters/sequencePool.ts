// The sequences of one llama.cpp context, shared between completions (one sequence each, many at once, so
// llama.cpp batches them as its server does with slots) and the scoring calls that need every sequence.
// First come, first served: a waiting exclusive call holds back the completions that arrive after it.

interface Waiter<S> {
  all: boolean;
  grant: (seqs: S[]) => void;
}

export interface Lease<S> {
  readonly seqs: S[];
  release(): void;
}

export class SequencePool<S> {
  readonly #all: readonly S[];
  #free: S[];
  #exclusive = false;
  #waiters: Waiter<S>[] = [];

  constructor(seqs: readonly S[]) {
    this.#all = seqs;
    this.#free = [...seqs];
  }

  get size(): number {
    return this.#all.length;
  }

  /** Sequences in use now. */
  get busy(): number {
    return this.#all.length - this.#free.length;
  }

  /** Calls waiting for a sequence. */
  get waiting(): number {
    return this.#waiters.length;
  }

  /** One sequence, or every one (`all`), once free; a signal aborted while waiting gives up its place. */
  acquire(all: boolean, signal?: AbortSignal): Promise<Lease<S>> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        const i = this.#waiters.indexOf(waiter);
        if (i >= 0) this.#waiters.splice(i, 1);
        reject(signal!.reason);
        this.#dispatch();
      };
      const waiter: Waiter<S> = {
        all,
        grant: (seqs) => {
          signal?.removeEventListener("abort", onAbort);
          let released = false;
          resolve({
            seqs,
            release: () => {
              if (released) return;
              released = true;
              if (all) this.#exclusive = false;
              this.#free.push(...seqs);
              this.#dispatch();
            },
          });
        },
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiters.push(waiter);
      this.#dispatch();
    });
  }

  #dispatch(): void {
    while (this.#waiters.length > 0 && !this.#exclusive) {
      const head = this.#waiters[0]!;
      if (head.all) {
        if (this.#free.length < this.#all.length) return;
        this.#waiters.shift();
        this.#exclusive = true;
        const seqs = this.#free;
        this.#free = [];
        head.grant(seqs);
      } else {
        if (this.#free.length === 0) return;
        this.#waiters.shift();
        head.grant([this.#free.shift()!]);
      }
    }
  }
}
