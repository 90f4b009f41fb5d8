import type { Writable } from 'node:stream';
import { formatBytes } from './byte-size';

/** Redrawing more often than this only costs terminal time; nobody reads faster. */
const REDRAW_INTERVAL_MS = 100;
/** Carriage return, then erase the line: the next text replaces the old progress in place. */
const REWRITE_LINE = '\r\u001b[2K';

/**
 * A single self-overwriting status line ("12.0 MiB of 40.0 MiB (30%), 120000 records"), for
 * terminals only: the caller creates it only when stderr is a TTY, so logs and pipes never get
 * carriage returns and escape codes.
 */
export class ProgressLine {
  readonly #out: Writable;
  readonly #totalBytes: number;
  readonly #nowMs: () => number;
  #lastDrawMs = Number.NEGATIVE_INFINITY;
  #drawn = false;

  constructor(out: Writable, totalBytes: number, nowMs: () => number) {
    this.#out = out;
    this.#totalBytes = totalBytes;
    this.#nowMs = nowMs;
  }

  update(readBytes: number, records: number): void {
    const nowMs = this.#nowMs();
    if (nowMs - this.#lastDrawMs < REDRAW_INTERVAL_MS) return;
    this.#lastDrawMs = nowMs;
    const percent =
      this.#totalBytes > 0 ? Math.min(100, Math.floor((readBytes / this.#totalBytes) * 100)) : 100;
    this.#out.write(
      `${REWRITE_LINE}${formatBytes(readBytes)} of ${formatBytes(this.#totalBytes)} (${percent}%), ${records} records stored`,
    );
    this.#drawn = true;
  }

  /** Erases the line, so the summary that follows starts on a clean line. */
  clear(): void {
    if (this.#drawn) this.#out.write(REWRITE_LINE);
    this.#drawn = false;
  }
}
