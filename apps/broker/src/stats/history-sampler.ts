import { join } from 'node:path';
import type { GroupSnapshot } from '../group/group-views';
import { StorageError, type StorageIo } from '../log/storage';
import type { PartitionOffsetsSource } from '../operator/group-lag';
import { type GroupPositions, groupLagSamples } from './group-lag-samples';
import { TOPIC_TRAFFIC_MEASURES, topicTrafficKey } from './history-keys';
import { HistoryFileError, type HistorySample, HistoryStore } from './history-store';
import type { HistoryTier } from './history-tiers';
import type { TopicTraffic } from './topic-traffic';

/** The history's file in the data directory. */
export const HISTORY_FILE = 'stats-history.bin';

export interface HistorySamplerDeps {
  io: StorageIo;
  dataDirectory: string;
  tiers: readonly HistoryTier[];
  maxSeries: number;
  sampleIntervalMs: number;
  persistIntervalMs: number;
  /** The groups this broker coordinates, once their partitions are loaded; empty before. */
  groups: () => readonly GroupSnapshot[];
  offsetsOf: PartitionOffsetsSource;
  /** Topics with a partition this broker leads: they get a throughput sample even when idle. */
  ledTopics: () => Iterable<string>;
  traffic: TopicTraffic;
  clock: { nowMs(): number };
  logger: {
    info(fields: object, message: string): void;
    warn(fields: object, message: string): void;
  };
}

/**
 * Samples consumer lag and topic throughput every `sampleIntervalMs` into a {@link HistoryStore}
 * and keeps it in `<dataDir>/stats-history.bin`, replaced atomically (temporary file, fsync,
 * rename) every `persistIntervalMs` and at stop, so the history outlives restarts of the broker
 * and of the console (docs/architecture.md §9). A missing, damaged or differently tiered file
 * starts an empty history: it is a record for operators and decides nothing the broker does.
 * The timers do not keep the process alive.
 */
export class HistorySampler {
  #store: HistoryStore;
  #positions: GroupPositions = new Map();
  #lastSampleMs: number | undefined;
  #sampleTimer: NodeJS.Timeout | undefined;
  #persistTimer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();
  #started = false;
  readonly #path: string;

  constructor(private readonly deps: HistorySamplerDeps) {
    this.#store = new HistoryStore(deps.tiers, deps.maxSeries);
    this.#path = join(deps.dataDirectory, HISTORY_FILE);
  }

  get store(): HistoryStore {
    return this.#store;
  }

  get sampleIntervalMs(): number {
    return this.deps.sampleIntervalMs;
  }

  /** Reads the file back and starts sampling. */
  async start(): Promise<void> {
    await this.load();
    this.#started = true;
    this.#sampleTimer = setInterval(() => {
      // A sampling that fails is a gap in the history, never a reason for the broker to stop.
      try {
        this.sample();
      } catch (error) {
        this.deps.logger.warn({ err: error }, 'sampling lag and throughput failed');
      }
    }, this.deps.sampleIntervalMs);
    this.#sampleTimer.unref();
    this.#persistTimer = setInterval(() => {
      this.persist().catch((error: unknown) =>
        this.deps.logger.warn({ err: error }, 'writing the lag and throughput history failed'),
      );
    }, this.deps.persistIntervalMs);
    this.#persistTimer.unref();
  }

  /**
   * Stops sampling and writes the history one last time; nothing when it never started (a broker
   * whose start failed must not replace the file with an empty history).
   */
  async stop(): Promise<void> {
    if (!this.#started) return;
    this.#started = false;
    clearInterval(this.#sampleTimer);
    clearInterval(this.#persistTimer);
    this.#sampleTimer = undefined;
    this.#persistTimer = undefined;
    await this.persist();
  }

  async load(): Promise<void> {
    let bytes: Buffer;
    try {
      bytes = await this.deps.io.readWholeFile(this.#path);
    } catch (error) {
      if (error instanceof StorageError && error.isNotFound) return;
      throw error;
    }
    try {
      this.#store = HistoryStore.decode(bytes, this.deps.tiers, this.deps.maxSeries);
      this.deps.logger.info({ series: this.#store.seriesCount }, 'lag and throughput history loaded');
    } catch (error) {
      if (!(error instanceof HistoryFileError || error instanceof SyntaxError)) throw error;
      this.deps.logger.warn(
        { path: this.#path, reason: error.message },
        'lag and throughput history unreadable; starting an empty one',
      );
    }
  }

  /** One sampling now: every group's lag and every topic's traffic since the previous one. */
  sample(): void {
    const nowMs = this.deps.clock.nowMs();
    const elapsedMs =
      this.#lastSampleMs === undefined ? this.deps.sampleIntervalMs : Math.max(0, nowMs - this.#lastSampleMs);
    this.#lastSampleMs = nowMs;
    const { totals, partitions, positions } = groupLagSamples(
      this.deps.groups(),
      this.deps.offsetsOf,
      this.#positions,
    );
    this.#positions = positions;
    const traffic = this.deps.traffic.take();
    const topics = new Set([...this.deps.ledTopics(), ...traffic.keys()]);
    const topicSamples: HistorySample[] = [];
    for (const topic of topics) {
      const counts = traffic.get(topic);
      for (const measure of TOPIC_TRAFFIC_MEASURES) {
        topicSamples.push({
          key: topicTrafficKey(topic, measure),
          kind: 'count',
          value: counts?.[measure] ?? 0,
        });
      }
    }
    // Group totals and topics before group partitions: a full store keeps the general series.
    this.#store.record(nowMs, elapsedMs, [...totals, ...topicSamples, ...partitions]);
  }

  /** Writes the store to its file; writes never overlap, and a later call waits for an earlier one. */
  persist(): Promise<void> {
    const written = this.#writing.then(() => this.deps.io.writeFileAtomic(this.#path, this.#store.encode()));
    this.#writing = written.catch(() => undefined);
    return written;
  }
}
