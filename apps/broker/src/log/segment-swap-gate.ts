/**
 * Lets reads of a partition's segments run together while keeping them apart from a segment swap
 * (a clean putting a rewritten segment in place of old ones). A read finds its segment once and then
 * opens its file by name, so a swap between those steps would have it read the new file at the old
 * file's positions. A swap therefore waits until the reads under way have finished and holds new
 * ones back while it renames files, which takes a few milliseconds; reads never wait for each other.
 */
export class SegmentSwapGate {
  #readers = 0;
  #swap: Promise<void> | undefined;
  #onDrained: (() => void) | undefined;

  /** Runs a read of segment files; it waits only while a swap is under way. */
  async read<T>(run: () => Promise<T>): Promise<T> {
    while (this.#swap !== undefined) await this.#swap;
    this.#readers++;
    try {
      return await run();
    } finally {
      this.#readers--;
      if (this.#readers === 0) this.#onDrained?.();
    }
  }

  /** Runs a swap once no read is under way, holding new reads back until it ends. */
  async exclusive<T>(run: () => Promise<T>): Promise<T> {
    while (this.#swap !== undefined) await this.#swap;
    let release: () => void = () => {};
    this.#swap = new Promise((resolve) => {
      release = resolve;
    });
    try {
      if (this.#readers > 0) {
        await new Promise<void>((resolve) => {
          this.#onDrained = resolve;
        });
      }
      this.#onDrained = undefined;
      return await run();
    } finally {
      this.#swap = undefined;
      release();
    }
  }
}
