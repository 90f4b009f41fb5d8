import { join } from 'node:path';
import { LogCleaner, type LogCleanerSettings } from './compaction/log-cleaner';
import { FileHandleCache } from './file-handle-cache';
import { DEFAULT_LOG_CONFIG, type LogConfig } from './log-config';
import { DELETED_SUFFIX, parsePartitionDirectoryName, partitionDirectoryName } from './log-files';
import { type LoadReport, openPartitionLog } from './log-loader';
import {
  checkpointKey,
  LOG_START_OFFSET_FILE,
  type OffsetCheckpoint,
  RECOVERY_POINT_FILE,
  readOffsetCheckpoint,
  writeOffsetCheckpoint,
} from './offset-checkpoint';
import type { PartitionLog } from './partition-log';
import type { Clock, PartitionLogEvents } from './partition-log-types';
import type { Segment } from './segment';
import { SpaceProbe } from './space-probe';
import { createStorageIo, StorageError, type StorageIo } from './storage';

/** Where log lines go; the broker passes its structured logger. */
export interface LogSink {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export interface LogManagerOptions {
  dataDirectory: string;
  /** Broker-wide defaults; a partition's topic config overrides them. */
  defaultConfig?: LogConfig;
  /** Per-topic overrides, looked up when a log is opened or created. */
  topicConfig?: (topic: string) => Partial<LogConfig> | undefined;
  io?: StorageIo;
  clock?: Clock;
  logger?: LogSink;
  /** Segment files kept open at once across all partitions. */
  maxOpenFiles?: number;
  /** Partition directories opened in parallel at start. */
  openConcurrency?: number;
  /** log.retention.check.interval.ms */
  retentionCheckIntervalMs?: number;
  /** How often the recovery-point and log-start-offset checkpoints are written. */
  checkpointIntervalMs?: number;
  /** log.cleaner.*; without it the cleaner is off. */
  cleaner?: LogCleanerSettings;
  /** The offset a clean of a partition stays below (its high watermark); default the log end. */
  cleanableUpperBound?: (log: PartitionLog) => number;
}

/** A partition that could not be opened or hit a disk error; the rest keep working. */
export interface OfflinePartition {
  topic: string;
  partition: number;
  reason: string;
}

/** A partition whose last write failed for want of disk space: it serves reads, refuses writes. */
export interface WriteDegradedPartition {
  topic: string;
  partition: number;
  reason: string;
  /** When it began refusing writes (epoch milliseconds). */
  sinceMs: number;
}

export interface LogManagerStartReport {
  cleanShutdown: boolean;
  openedCount: number;
  offline: OfflinePartition[];
  reports: Map<string, LoadReport>;
}

const CLEAN_SHUTDOWN_FILE = '.weir-clean-shutdown';
const DELETE_DIRECTORY_SUFFIX = '-delete';

const systemClock: Clock = { nowMs: () => Date.now() };
const silentLogger: LogSink = { info() {}, warn() {}, error() {} };

/**
 * Every partition log in one data directory: opens them at start (in parallel, bounded), creates
 * and deletes them, runs retention, writes checkpoints, and closes everything cleanly on shutdown
 * (which lets the next start skip recovery). A partition whose files are damaged or whose disk
 * fails goes offline alone.
 */
export class LogManager {
  readonly dataDirectory: string;
  readonly #io: StorageIo;
  readonly #clock: Clock;
  readonly #logger: LogSink;
  readonly #handles: FileHandleCache;
  readonly #defaultConfig: LogConfig;
  readonly #logs = new Map<string, PartitionLog>();
  readonly #offline = new Map<string, OfflinePartition>();
  readonly #timers = new Set<NodeJS.Timeout>();
  /** Maintenance work a timer started and that has not finished yet; shutdown waits for it. */
  readonly #maintenance = new Set<Promise<unknown>>();
  #stopping = false;
  #recoveryPoints: OffsetCheckpoint = new Map();
  #logStartOffsets: OffsetCheckpoint = new Map();
  #checkpointDirty = false;
  #started = false;
  readonly #spaceProbe: SpaceProbe;
  /** Compacts the logs whose cleanup.policy has compact. */
  readonly cleaner: LogCleaner;

  constructor(private readonly options: LogManagerOptions) {
    this.dataDirectory = options.dataDirectory;
    this.#io = options.io ?? createStorageIo();
    this.#clock = options.clock ?? systemClock;
    this.#logger = options.logger ?? silentLogger;
    this.#handles = new FileHandleCache(this.#io, options.maxOpenFiles ?? 1024);
    this.#defaultConfig = options.defaultConfig ?? DEFAULT_LOG_CONFIG;
    this.#spaceProbe = new SpaceProbe({
      io: this.#io,
      directory: this.dataDirectory,
      waiters: () => this.logs().filter((log) => log.outOfSpaceError !== undefined),
      logger: this.#logger,
    });
    this.cleaner = new LogCleaner({
      settings: options.cleaner ?? {
        enable: false,
        threads: 1,
        dedupeBufferBytes: 1 << 20,
        backoffMs: 15_000,
      },
      io: this.#io,
      dataDirectory: this.dataDirectory,
      logs: () => this.logs(),
      nowMs: () => this.#clock.nowMs(),
      logger: this.#logger,
      ...(options.cleanableUpperBound === undefined ? {} : { upperBoundOffset: options.cleanableUpperBound }),
    });
  }

  get openFileCount(): number {
    return this.#handles.openCount;
  }

  /** Opens every partition directory found in the data directory. */
  async start(): Promise<LogManagerStartReport> {
    if (this.#started) throw new Error('LogManager already started');
    this.#started = true;
    await this.#io.makeDirectory(this.dataDirectory);
    const markerPath = join(this.dataDirectory, CLEAN_SHUTDOWN_FILE);
    const cleanShutdown = await this.#exists(markerPath);
    const recoveryPoints = await readOffsetCheckpoint(
      this.#io,
      join(this.dataDirectory, RECOVERY_POINT_FILE),
    );
    const logStarts = await readOffsetCheckpoint(this.#io, join(this.dataDirectory, LOG_START_OFFSET_FILE));
    // An unreadable checkpoint means offsets cannot be trusted: recover everything from the start.
    this.#recoveryPoints = recoveryPoints ?? new Map();
    this.#logStartOffsets = logStarts ?? new Map();
    const trustFiles = cleanShutdown && recoveryPoints !== undefined;

    const partitions: { topic: string; partition: number; directory: string }[] = [];
    for (const name of await this.#io.listDirectory(this.dataDirectory)) {
      if (name.endsWith(DELETE_DIRECTORY_SUFFIX)) {
        await this.#io.removeTree(join(this.dataDirectory, name));
        continue;
      }
      const parsed = parsePartitionDirectoryName(name);
      if (parsed) partitions.push({ ...parsed, directory: join(this.dataDirectory, name) });
    }

    const reports = new Map<string, LoadReport>();
    await forEachBounded(partitions, this.options.openConcurrency ?? 8, async ({ topic, partition }) => {
      const report = await this.#open(topic, partition, trustFiles);
      if (report) reports.set(checkpointKey(topic, partition), report);
    });
    // From here on a crash must lead to recovery, so the marker goes before any append can happen.
    if (cleanShutdown) await this.#io.unlink(markerPath);
    this.#schedule(() => this.runRetention(), this.options.retentionCheckIntervalMs ?? 300_000);
    // Kafka writes this every 60 s, but at hundreds of MB/s a stale recovery point means rescanning
    // gigabytes after a crash; a small file every few seconds is cheap.
    this.#schedule(() => this.#writeCheckpointsIfChanged(), this.options.checkpointIntervalMs ?? 5_000);
    this.#schedule(() => this.#rollExpiredSegments(), 1000);
    await this.cleaner.start();
    return {
      cleanShutdown: trustFiles,
      openedCount: this.#logs.size,
      offline: this.offlinePartitions(),
      reports,
    };
  }

  getLog(topic: string, partition: number): PartitionLog | undefined {
    return this.#logs.get(checkpointKey(topic, partition));
  }

  logs(): PartitionLog[] {
    return [...this.#logs.values()];
  }

  isOffline(topic: string, partition: number): boolean {
    return this.#offline.has(checkpointKey(topic, partition));
  }

  offlinePartitions(): OfflinePartition[] {
    return [...this.#offline.values()];
  }

  /** Partitions that refuse writes for want of disk space; they come back once a probe finds space. */
  writeDegradedPartitions(): WriteDegradedPartition[] {
    const degraded: WriteDegradedPartition[] = [];
    for (const log of this.#logs.values()) {
      const error = log.outOfSpaceError;
      if (error === undefined) continue;
      const { sinceMs } = log.storageState;
      degraded.push({ topic: log.topic, partition: log.partition, reason: error.message, sinceMs });
    }
    return degraded;
  }

  /**
   * Checks for disk space now instead of at the next scheduled probe and lets the partitions that
   * ran out of it write again if there is; resolves whether there was.
   */
  probeDiskSpace(): Promise<boolean> {
    return this.#spaceProbe.probeNow();
  }

  /** Creates (or opens, if it exists) the log of a partition. */
  async createLog(topic: string, partition: number): Promise<PartitionLog> {
    const existing = this.getLog(topic, partition);
    if (existing) return existing;
    await this.#open(topic, partition, false);
    const log = this.getLog(topic, partition);
    if (!log) {
      const offline = this.#offline.get(checkpointKey(topic, partition));
      throw new Error(`could not create the log of ${topic}-${partition}: ${offline?.reason ?? 'unknown'}`);
    }
    return log;
  }

  /**
   * Deletes a partition's log: it leaves the map at once, its directory is renamed aside (so a
   * crash cannot bring it back half-deleted) and then removed.
   */
  async deleteLog(topic: string, partition: number): Promise<void> {
    const key = checkpointKey(topic, partition);
    const log = this.#logs.get(key);
    this.#logs.delete(key);
    this.#offline.delete(key);
    this.#recoveryPoints.delete(key);
    this.#logStartOffsets.delete(key);
    this.#checkpointDirty = true;
    if (log) {
      try {
        await log.close();
      } catch {
        // A log that cannot close cleanly is deleted anyway.
      }
    }
    const directory = join(this.dataDirectory, partitionDirectoryName(topic, partition));
    const doomed = `${directory}.${this.#clock.nowMs()}${DELETE_DIRECTORY_SUFFIX}`;
    try {
      await this.#io.rename(directory, doomed);
    } catch (error) {
      if (error instanceof StorageError && error.isNotFound) return;
      throw error;
    }
    await this.#io.removeTree(doomed);
  }

  /** Applies retention to every log; returns the number of segments deleted. */
  async runRetention(): Promise<number> {
    let deleted = 0;
    for (const log of this.#logs.values()) {
      try {
        deleted += await log.applyRetention();
      } catch (error) {
        this.#logger.warn('retention failed', {
          topic: log.topic,
          partition: log.partition,
          error: String(error),
        });
      }
    }
    return deleted;
  }

  async #writeCheckpointsIfChanged(): Promise<void> {
    const changed =
      this.#checkpointDirty ||
      [...this.#logs].some(
        ([key, log]) => !log.isOffline && this.#recoveryPoints.get(key) !== log.recoveryPoint,
      );
    if (changed) await this.writeCheckpoints();
  }

  /** Writes the recovery-point and log-start-offset checkpoints. */
  async writeCheckpoints(): Promise<void> {
    for (const [key, log] of this.#logs) {
      if (log.isOffline) continue;
      this.#recoveryPoints.set(key, log.recoveryPoint);
      this.#logStartOffsets.set(key, log.logStartOffset);
    }
    this.#checkpointDirty = false;
    await writeOffsetCheckpoint(
      this.#io,
      join(this.dataDirectory, RECOVERY_POINT_FILE),
      this.#recoveryPoints,
    );
    await writeOffsetCheckpoint(
      this.#io,
      join(this.dataDirectory, LOG_START_OFFSET_FILE),
      this.#logStartOffsets,
    );
  }

  /**
   * Stops timers, closes every log (flushing it and writing its indexes and producer snapshot),
   * writes the checkpoints and finally the clean-shutdown marker, so the next start scans nothing.
   */
  async shutdown(): Promise<void> {
    this.#stopping = true;
    for (const timer of this.#timers) clearInterval(timer);
    this.#timers.clear();
    await this.#spaceProbe.stop();
    await this.cleaner.stop();
    // A checkpoint write or retention pass already under way would otherwise go on writing into
    // the data directory after shutdown resolved, and race the checkpoints written below.
    await Promise.all(this.#maintenance);
    let allClean = true;
    await forEachBounded([...this.#logs.values()], 8, async (log) => {
      try {
        await log.close();
      } catch (error) {
        allClean = false;
        this.#logger.error('closing a partition log failed', {
          topic: log.topic,
          partition: log.partition,
          error: String(error),
        });
      }
      if (log.isOffline) allClean = false;
    });
    try {
      await this.writeCheckpoints();
    } catch (error) {
      // On a full disk the checkpoints may not fit; the next start then recovers from older ones.
      allClean = false;
      this.#logger.error('writing the checkpoints at shutdown failed', { error: String(error) });
    }
    await this.#handles.closeAll();
    if (allClean && this.#offline.size === 0) {
      await this.#io.writeFileAtomic(join(this.dataDirectory, CLEAN_SHUTDOWN_FILE), Buffer.alloc(0));
    }
  }

  /** The effective config of a topic: broker defaults overridden by the topic's own settings. */
  configFor(topic: string): LogConfig {
    return { ...this.#defaultConfig, ...this.options.topicConfig?.(topic) };
  }

  async #open(topic: string, partition: number, trustFiles: boolean): Promise<LoadReport | undefined> {
    const key = checkpointKey(topic, partition);
    const directory = join(this.dataDirectory, partitionDirectoryName(topic, partition));
    try {
      const { log, report } = await openPartitionLog({
        io: this.#io,
        handles: this.#handles,
        directory,
        topic,
        partition,
        config: this.configFor(topic),
        clock: this.#clock,
        events: this.#eventsFor(topic, partition),
        recoveryPoint: this.#recoveryPoints.get(key) ?? 0,
        logStartOffset: this.#logStartOffsets.get(key),
        cleanShutdown: trustFiles && this.#recoveryPoints.has(key),
      });
      this.#logs.set(key, log);
      this.#offline.delete(key);
      return report;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.#offline.set(key, { topic, partition, reason });
      this.#logger.error('partition log is offline: it could not be opened', { topic, partition, reason });
      return undefined;
    }
  }

  /**
   * One small object per partition whose methods are shared by all of them: six arrow functions
   * per partition cost a closure each, a context and (under tsx, which keeps function names) a
   * property dictionary, several kilobytes per partition at 10,000 partitions.
   */
  #eventsFor(topic: string, partition: number): PartitionLogEvents {
    return new LogManager.#PartitionEvents(this, topic, partition, checkpointKey(topic, partition));
  }

  /** Declared inside the class so its methods can reach the manager's private members. */
  static readonly #PartitionEvents = class implements PartitionLogEvents {
    constructor(
      private readonly manager: LogManager,
      private readonly topic: string,
      private readonly partition: number,
      private readonly key: string,
    ) {}

    onOffline(error: StorageError): void {
      const { topic, partition } = this;
      this.manager.#offline.set(this.key, { topic, partition, reason: error.message });
    }

    onOutOfSpace(): void {
      this.manager.#spaceProbe.noteOutOfSpace();
    }

    onLogStartOffsetChanged(): void {
      this.manager.#checkpointDirty = true;
    }

    info(message: string, fields: Record<string, unknown>): void {
      this.manager.#logger.info(message, fields);
    }

    warn(message: string, fields: Record<string, unknown>): void {
      this.manager.#logger.warn(message, fields);
    }

    scheduleDelete(segment: Segment, reason: string): void {
      this.manager.#scheduleSegmentDelete(segment, reason, this.topic, this.partition);
    }
  };

  #scheduleSegmentDelete(segment: Segment, reason: string, topic: string, partition: number): void {
    this.#logger.info('deleting segment', { topic, partition, baseOffset: segment.baseOffset, reason });
    // Once shutdown began no new timer may start; the `.deleted` files go at the next start.
    if (this.#stopping) return;
    const paths = [
      segment.logPath,
      segment.offsetIndex.path,
      segment.timeIndex.path,
      segment.txnIndex.path,
    ].map((path) => `${path}${DELETED_SUFFIX}`);
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      this.#track(Promise.all(paths.map((path) => this.#io.unlink(path).catch(() => undefined))));
    }, this.configFor(topic).fileDeleteDelayMs);
    timer.unref();
    this.#timers.add(timer);
  }

  async #rollExpiredSegments(): Promise<void> {
    for (const log of this.#logs.values()) await log.rollIfExpired();
    if (this.#checkpointDirty) await this.writeCheckpoints();
  }

  #schedule(task: () => Promise<unknown>, intervalMs: number): void {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      this.#track(
        task()
          .catch((error: unknown) =>
            this.#logger.error('log maintenance task failed', { error: String(error) }),
          )
          .finally(() => {
            running = false;
          }),
      );
    }, intervalMs);
    timer.unref();
    this.#timers.add(timer);
  }

  /** Keeps `work` (which reports its own errors) in the set shutdown waits for until it settles. */
  #track(work: Promise<unknown>): void {
    this.#maintenance.add(work);
    const settled = () => void this.#maintenance.delete(work);
    work.then(settled, settled);
  }

  async #exists(path: string): Promise<boolean> {
    try {
      await this.#io.fileSizeBytes(path);
      return true;
    } catch (error) {
      if (error instanceof StorageError && error.isNotFound) return false;
      throw error;
    }
  }
}

/** Runs `task` for every item with at most `concurrency` running at once. */
async function forEachBounded<T>(items: readonly T[], concurrency: number, task: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}
