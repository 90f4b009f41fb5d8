import { join } from 'node:path';
import type { LogSink } from '../log-manager';
import {
  checkpointKey,
  type OffsetCheckpoint,
  readOffsetCheckpoint,
  writeOffsetCheckpoint,
} from '../offset-checkpoint';
import type { PartitionLog } from '../partition-log';
import type { Segment } from '../segment';
import type { StorageIo } from '../storage';
import { IoThrottle } from './io-throttle';
import { KeyOffsetMap } from './key-offset-map';
import { type NextCleanDue, nextCleanAfter } from './next-clean-due';
import { type CleanOutcome, cleanPartition } from './partition-cleaner';

/** Kafka's cleaner checkpoint: per partition, the offset the last clean reached. */
export const CLEANER_CHECKPOINT_FILE = 'cleaner-offset-checkpoint';

/** The broker's log.cleaner.* settings. */
export interface LogCleanerSettings {
  readonly enable: boolean;
  readonly threads: number;
  /** log.cleaner.dedupe.buffer.size, shared by the threads. */
  readonly dedupeBufferBytes: number;
  /** log.cleaner.io.max.bytes.per.second; undefined: unlimited. */
  readonly ioMaxBytesPerSecond?: number | undefined;
  /** log.cleaner.backoff.ms: the wait when nothing is due. */
  readonly backoffMs: number;
}

export interface LogCleanerOptions {
  readonly settings: LogCleanerSettings;
  readonly io: StorageIo;
  readonly dataDirectory: string;
  readonly logs: () => readonly PartitionLog[];
  readonly nowMs: () => number;
  readonly logger: LogSink;
  /**
   * The offset a partition's clean must stay below: the high watermark, which the replica layer
   * knows. Without it, the log end.
   */
  readonly upperBoundOffset?: (log: PartitionLog) => number;
}

/** One partition as the cleaner last saw it, for metrics and the console. */
export interface CleanerPartitionState {
  readonly topic: string;
  readonly partition: number;
  readonly cleanedUpToOffset: number | undefined;
  readonly dirtyRatio: number;
  /** The partition's min.cleanable.dirty.ratio now: the dirty ratio at which a clean is due. */
  readonly minCleanableDirtyRatio: number;
  readonly lastCleanedAtMs: number | undefined;
  readonly lastOutcome: CleanOutcome['kind'] | 'failed' | undefined;
  readonly lastError: string | undefined;
  /** Bytes the last finished clean took off the log (read minus written); undefined before one. */
  readonly lastCleanRemovedBytes: number | undefined;
  /** Bytes the cleans of this partition took off since the broker started. */
  readonly removedBytesTotal: number;
  readonly nextCleanDue: NextCleanDue;
}

/** What the cleaner records of a partition; the settings are read when asked (they can change). */
type RecordedState = Omit<CleanerPartitionState, 'minCleanableDirtyRatio'>;

class CleanerStopped extends Error {}

/**
 * The log cleaner (Kafka's LogCleaner and LogCleanerManager): a loop per cleaner thread that
 * picks the compacted partition with the highest dirty ratio whose clean is due, cleans it, and
 * records how far in the cleaner checkpoint. Each thread has its share of the dedupe buffer,
 * allocated at its first clean. A partition is cleaned by one thread at a time; a clean that fails
 * is logged and the partition waits for the next round.
 */
export class LogCleaner {
  readonly #options: LogCleanerOptions;
  readonly #throttle: IoThrottle;
  #checkpoint: OffsetCheckpoint = new Map();
  readonly #states = new Map<string, RecordedState>();
  readonly #cleaning = new Set<string>();
  /** When each partition was last judged not due, or failed: it is skipped for log.cleaner.backoff.ms. */
  readonly #restingUntilMs = new Map<string, number>();
  readonly #maps: (KeyOffsetMap | undefined)[];
  readonly #loops: Promise<void>[] = [];
  #stopping = false;
  /** How to end each resting thread's backoff early (stop), by thread. */
  readonly #wakes = new Map<number, () => void>();
  /** First batch times of closed segments, which never change: read once per segment. */
  readonly #firstTimestamps = new WeakMap<Segment, number>();

  constructor(options: LogCleanerOptions) {
    this.#options = options;
    this.#throttle = new IoThrottle(options.settings.ioMaxBytesPerSecond, options.nowMs);
    this.#maps = Array.from({ length: Math.max(1, options.settings.threads) }, () => undefined);
  }

  async start(): Promise<void> {
    this.#checkpoint = (await readOffsetCheckpoint(this.#options.io, this.#checkpointPath())) ?? new Map();
    if (!this.#options.settings.enable) return;
    for (let thread = 0; thread < this.#maps.length; thread++) this.#loops.push(this.#run(thread));
  }

  /** Stops the threads; a clean under way is given up at its next chunk (its files discarded). */
  async stop(): Promise<void> {
    this.#stopping = true;
    for (const wake of [...this.#wakes.values()]) wake();
    await Promise.all(this.#loops);
  }

  /**
   * What the cleaner knows of each compacted partition it has looked at. A partition whose topic
   * no longer compacts, or that is gone, is left out.
   */
  states(): CleanerPartitionState[] {
    const states: CleanerPartitionState[] = [];
    for (const log of this.#options.logs()) {
      if (!log.config.compact) continue;
      const recorded = this.#states.get(checkpointKey(log.topic, log.partition));
      if (recorded === undefined) continue;
      states.push({ ...recorded, minCleanableDirtyRatio: log.config.minCleanableDirtyRatio });
    }
    return states;
  }

  /**
   * Cleans the dirtiest compacted partition that is due (or `only`, even when not due, if it has
   * dirty segments) now, with thread 0's map; resolves with what happened, or undefined when
   * nothing was due. For tests and operators: the threads do the same on their own.
   */
  async cleanNow(only?: PartitionLog): Promise<CleanOutcome | undefined> {
    const log = only ?? this.#dirtiest();
    if (log === undefined) return undefined;
    return this.#clean(log, 0, only !== undefined);
  }

  async #run(thread: number): Promise<void> {
    while (!this.#stopping) {
      const log = this.#dirtiest();
      if (log !== undefined) {
        await this.#clean(log, thread, false);
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.#options.settings.backoffMs);
        timer.unref();
        this.#wakes.set(thread, () => {
          clearTimeout(timer);
          resolve();
        });
      });
      this.#wakes.delete(thread);
    }
  }

  /** The compacted partition not being cleaned with the highest dirty ratio last seen. */
  #dirtiest(): PartitionLog | undefined {
    let best: PartitionLog | undefined;
    let bestRatio = -1;
    for (const log of this.#options.logs()) {
      if (!log.config.compact || log.isOffline) continue;
      const key = checkpointKey(log.topic, log.partition);
      if (this.#cleaning.has(key)) continue;
      if ((this.#restingUntilMs.get(key) ?? 0) > this.#options.nowMs()) continue;
      // Partitions never looked at come first, so every one is judged at least once.
      const ratio = this.#states.get(key)?.dirtyRatio ?? 2;
      if (ratio > bestRatio) {
        best = log;
        bestRatio = ratio;
      }
    }
    return best;
  }

  async #clean(log: PartitionLog, thread: number, force: boolean): Promise<CleanOutcome | undefined> {
    const key = checkpointKey(log.topic, log.partition);
    if (this.#cleaning.has(key)) return undefined;
    this.#cleaning.add(key);
    const { io, nowMs, logger } = this.#options;
    const previous = this.#states.get(key);
    try {
      const outcome = await cleanPartition(
        log,
        this.#checkpoint.get(key),
        this.#options.upperBoundOffset?.(log) ?? log.logEndOffset,
        {
          map: this.#mapOf(thread),
          nowMs,
          afterChunk: async (bytes) => {
            if (this.#stopping) throw new CleanerStopped('the broker is stopping');
            await this.#throttle.consume(bytes);
          },
          openForReading: (path) => io.openFile(path, 'read'),
          firstTimestamps: this.#firstTimestamps,
        },
        { force },
      );
      const cleaned = outcome.kind === 'cleaned';
      if (!cleaned) this.#rest(key);
      if (cleaned) {
        this.#checkpoint.set(key, outcome.cleanedUpToOffset);
        await writeOffsetCheckpoint(io, this.#checkpointPath(), this.#checkpoint);
        logger.info('cleaned a compacted partition', {
          topic: log.topic,
          partition: log.partition,
          cleanedUpToOffset: outcome.cleanedUpToOffset,
          keptRecords: outcome.keptRecords,
          removedRecords: outcome.removedRecords,
          readBytes: outcome.readBytes,
          writtenBytes: outcome.writtenBytes,
        });
      }
      // Read minus written: what the clean took off the log (cleaned batches are never larger).
      const removedBytes = cleaned ? Math.max(0, outcome.readBytes - outcome.writtenBytes) : undefined;
      this.#states.set(key, {
        topic: log.topic,
        partition: log.partition,
        cleanedUpToOffset: this.#checkpoint.get(key),
        // After a clean the cleaned part is clean: what is left dirty is judged next round.
        dirtyRatio: cleaned ? 0 : outcome.range.dirtyRatio,
        lastCleanedAtMs: cleaned ? nowMs() : previous?.lastCleanedAtMs,
        lastOutcome: outcome.kind,
        lastError: undefined,
        lastCleanRemovedBytes: removedBytes ?? previous?.lastCleanRemovedBytes,
        removedBytesTotal: (previous?.removedBytesTotal ?? 0) + (removedBytes ?? 0),
        nextCleanDue: nextCleanAfter(outcome, log.config, this.#restingUntilMs.get(key) ?? nowMs()),
      });
      return outcome;
    } catch (error) {
      if (error instanceof CleanerStopped) return undefined;
      this.#rest(key);
      const reason = error instanceof Error ? error.message : String(error);
      logger.warn('cleaning a compacted partition failed', {
        topic: log.topic,
        partition: log.partition,
        reason,
      });
      this.#states.set(key, {
        topic: log.topic,
        partition: log.partition,
        cleanedUpToOffset: this.#checkpoint.get(key),
        dirtyRatio: 0,
        lastCleanedAtMs: previous?.lastCleanedAtMs,
        lastOutcome: 'failed',
        lastError: reason,
        lastCleanRemovedBytes: previous?.lastCleanRemovedBytes,
        removedBytesTotal: previous?.removedBytesTotal ?? 0,
        nextCleanDue: nextCleanAfter(undefined, log.config, this.#restingUntilMs.get(key) ?? nowMs()),
      });
      return undefined;
    } finally {
      this.#cleaning.delete(key);
    }
  }

  #rest(key: string): void {
    this.#restingUntilMs.set(key, this.#options.nowMs() + this.#options.settings.backoffMs);
  }

  #mapOf(thread: number): KeyOffsetMap {
    const share = Math.floor(this.#options.settings.dedupeBufferBytes / this.#maps.length);
    this.#maps[thread] ??= new KeyOffsetMap(share);
    return this.#maps[thread]!;
  }

  #checkpointPath(): string {
    return join(this.#options.dataDirectory, CLEANER_CHECKPOINT_FILE);
  }
}
