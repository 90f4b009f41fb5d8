import type { Writable } from 'node:stream';

/**
 * Writes command output with backpressure, and notices when the reader has gone away (`| head`
 * closes the pipe: EPIPE). Without the error listener that EPIPE would crash the process; with it,
 * the command sees `broken` and stops quietly, as Unix tools do.
 */
export class OutputSink {
  readonly #out: Writable;
  #broken = false;

  constructor(out: Writable) {
    this.#out = out;
    // Kept for the process's life: a late EPIPE while exiting must not crash either.
    out.on('error', () => {
      this.#broken = true;
    });
  }

  /** Whether the output cannot take more (its reader closed it). */
  get broken(): boolean {
    return this.#broken || this.#out.destroyed;
  }

  /** Writes, and waits while the reader is behind. */
  async write(chunk: Buffer): Promise<void> {
    if (this.broken || this.#out.write(chunk)) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        this.#out.off('drain', done);
        this.#out.off('error', done);
        this.#out.off('close', done);
        resolve();
      };
      this.#out.once('drain', done);
      this.#out.once('error', done);
      this.#out.once('close', done);
    });
  }
}
