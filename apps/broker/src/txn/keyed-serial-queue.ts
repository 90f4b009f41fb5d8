/**
 * Runs tasks one at a time per key, in arrival order; tasks of different keys run concurrently.
 * The transaction coordinator serialises every change of a transactional id through it, so a
 * write to `__transaction_state` and the state it installs can never interleave with another
 * request's for the same id.
 */
export class KeyedSerialQueue {
  readonly #tails = new Map<string, Promise<void>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => done);
    this.#tails.set(key, tail);
    await previous;
    try {
      return await task();
    } finally {
      release();
      // The last task of a key removes its entry, so idle keys cost nothing.
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }
}
