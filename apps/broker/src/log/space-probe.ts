import { join } from 'node:path';
import { StorageError, type StorageIo } from './storage';

/** A log that refuses writes for want of space, as the probe sees it. */
export interface SpaceWaiter {
  /** Accepts writes again; returns whether it refused them until now. */
  resumeWrites(): boolean;
  /** The bytes of the write that failed; the probe asks for at least that much space. */
  readonly failedWriteBytes: number;
}

export interface SpaceProbeOptions {
  io: StorageIo;
  /** The directory the probe writes in: the one the partition directories share. */
  directory: string;
  /** The logs refusing writes for want of space now, asked at each probe. */
  waiters: () => readonly SpaceWaiter[];
  logger: {
    info(message: string, fields?: Record<string, unknown>): void;
    warn(message: string, fields?: Record<string, unknown>): void;
  };
  /** The wait before the first probe after a write ran out of space; doubled after each miss. */
  initialBackoffMs?: number;
  /** The longest wait between two probes. */
  maxBackoffMs?: number;
}

/** The file a probe writes, syncs and removes; a partition directory name never starts with a dot. */
export const SPACE_PROBE_FILE = '.weir-space-probe';

/** A probe asks for at least this much, so a write right after it does not fail again at once. */
const MIN_PROBE_BYTES = 64 * 1024;
/** And at most this much: a probe must not itself take the space the partitions wait for. */
const MAX_PROBE_BYTES = 8 * 1024 * 1024;

/**
 * Brings partitions that ran out of disk space back without a restart (docs/architecture.md §4).
 * Space is a property of the file system, not of a partition, so one probe serves every partition
 * of the data directory: after a write fails for want of space, it writes a file as large as the
 * failed write (within bounds), fdatasyncs it and removes it, with exponential backoff between
 * tries, and once that succeeds every waiting partition accepts writes again. A partition whose
 * next write fails anyway goes back to waiting. {@link probeNow} is the same check on demand.
 */
export class SpaceProbe {
  readonly #initialBackoffMs: number;
  readonly #maxBackoffMs: number;
  #backoffMs: number;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<boolean> | undefined;
  #stopped = false;

  constructor(private readonly options: SpaceProbeOptions) {
    this.#initialBackoffMs = options.initialBackoffMs ?? 100;
    this.#maxBackoffMs = options.maxBackoffMs ?? 2_000;
    this.#backoffMs = this.#initialBackoffMs;
  }

  /** Called when a log starts refusing writes for want of space: a probe is scheduled. */
  noteOutOfSpace(): void {
    this.#schedule();
  }

  /**
   * Probes now and resumes the waiting logs if there is space; resolves whether there was (true
   * also when nothing was waiting).
   */
  probeNow(): Promise<boolean> {
    if (this.#running) return this.#running;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const run = this.#probeAndResume().then(
      (found) => {
        this.#running = undefined;
        // No space yet: try again after the (doubled) backoff. A log that ran out of space while
        // this probe was under way was not among those it resumed: it gets a probe of its own.
        if (!found || this.options.waiters().length > 0) this.#schedule();
        return found;
      },
      (error: unknown) => {
        this.#running = undefined;
        throw error;
      },
    );
    this.#running = run;
    return run;
  }

  /** Stops probing; resolves once a probe under way is done. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running?.catch(() => undefined);
  }

  #schedule(): void {
    if (this.#stopped || this.#timer !== undefined || this.#running) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.probeNow();
    }, this.#backoffMs);
    // A probe must not keep a process alive that is otherwise done.
    this.#timer.unref();
  }

  async #probeAndResume(): Promise<boolean> {
    const waiters = this.options.waiters();
    if (waiters.length === 0) {
      this.#backoffMs = this.#initialBackoffMs;
      return true;
    }
    const wantedBytes = Math.max(...waiters.map((waiter) => waiter.failedWriteBytes));
    const probeBytes = Math.min(MAX_PROBE_BYTES, Math.max(MIN_PROBE_BYTES, wantedBytes));
    const found = await this.#probe(probeBytes);
    if (!found) {
      this.#backoffMs = Math.min(this.#maxBackoffMs, this.#backoffMs * 2);
      return false;
    }
    this.#backoffMs = this.#initialBackoffMs;
    const resumed = waiters.filter((waiter) => waiter.resumeWrites()).length;
    this.options.logger.info('disk space is available again: partitions accept writes', {
      partitions: resumed,
      probeBytes,
    });
    return true;
  }

  /** Whether `bytes` could be written and made durable in the directory just now. */
  async #probe(bytes: number): Promise<boolean> {
    const { io, directory, logger } = this.options;
    const path = join(directory, SPACE_PROBE_FILE);
    try {
      const file = await io.openFile(path, 'create');
      try {
        await file.writev([Buffer.alloc(bytes)], 0);
        await file.datasync();
      } finally {
        await file.close();
      }
      return true;
    } catch (error) {
      const errno = error instanceof StorageError ? error.errno : String(error);
      // ENOSPC is the expected answer while the disk is full; anything else is worth a warning.
      if (errno !== 'ENOSPC' && errno !== 'EDQUOT') {
        logger.warn('disk space probe failed', { path, error: String(error) });
      }
      return false;
    } finally {
      await io.unlink(path).catch(() => undefined);
    }
  }
}
