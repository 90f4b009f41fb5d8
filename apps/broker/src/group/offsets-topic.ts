import { decodeRecordBatch, encodeRecordBatch, isControlBatch, iterateBatches } from '@weir/protocol';
import type { TopicManager } from '../topics/topic-manager';
import { type CoordinatorRecord, decodeCoordinatorRecord, encodeCoordinatorRecord } from './offsets-records';

/** Kafka's name for the topic that holds committed offsets and group metadata. */
export const OFFSETS_TOPIC = '__consumer_offsets';

/**
 * Topic configs of `__consumer_offsets` when the broker creates it. Retention is off: without
 * compaction, deleting old segments would lose the latest offsets of quiet groups. 100 MiB
 * segments and 16 MiB batches are Kafka's offsets.topic.segment.bytes and room for the group
 * metadata of large groups (every member's subscription and assignment in one record).
 */
const OFFSETS_TOPIC_CONFIGS: Record<string, string> = {
  'retention.ms': '-1',
  'segment.bytes': String(100 * 1024 * 1024),
  'max.message.bytes': String(16 * 1024 * 1024),
};

/** How many bytes of records one batch carries at most; larger writes are split. */
const MAX_BATCH_PAYLOAD_BYTES = 4 * 1024 * 1024;
const READ_CHUNK_BYTES = 1024 * 1024;

/** Where the coordinator persists its records: one `__consumer_offsets` partition per group. */
export interface GroupStore {
  readonly partitionCount: number;
  /** Appends records to a partition; with `durable`, resolves once they are fdatasync'd. */
  write(
    partition: number,
    records: readonly CoordinatorRecord[],
    options: { durable: boolean },
  ): Promise<void>;
}

export interface ReplayReport {
  records: number;
  /** Records whose key or value this broker cannot read (foreign or newer writers); skipped. */
  skipped: number;
}

/** {@link GroupStore} over the broker's own partition logs. */
export class OffsetsTopicStore implements GroupStore {
  #partitionCount = 0;
  /** Appends not yet finished, so shutdown can wait for them before the logs close. */
  readonly #inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly topics: TopicManager,
    private readonly clock: { nowMs(): number },
  ) {}

  get partitionCount(): number {
    return this.#partitionCount;
  }

  /**
   * Creates the topic on first start. An existing topic keeps its partition count, whatever the
   * configuration says now: changing it would move groups to other partitions and lose them.
   */
  async open(configuredPartitions: number): Promise<{ created: boolean; partitionCount: number }> {
    const existing = this.topics.getTopic(OFFSETS_TOPIC);
    if (existing) {
      this.#partitionCount = existing.partitionCount;
      return { created: false, partitionCount: existing.partitionCount };
    }
    const created = await this.topics.createTopic(
      { name: OFFSETS_TOPIC, partitionCount: configuredPartitions, configs: { ...OFFSETS_TOPIC_CONFIGS } },
      { internal: true },
    );
    this.#partitionCount = created.partitionCount;
    return { created: true, partitionCount: created.partitionCount };
  }

  async write(
    partition: number,
    records: readonly CoordinatorRecord[],
    options: { durable: boolean },
  ): Promise<void> {
    if (records.length === 0) return;
    const log = this.topics.partitionLog(OFFSETS_TOPIC, partition);
    const timestampMs = this.clock.nowMs();
    const appends: Promise<unknown>[] = [];
    let batch: { key: Buffer; value: Buffer | null; timestampMs: number }[] = [];
    let batchBytes = 0;
    // Every batch is handed to the log before any await, so the log keeps them in call order.
    for (const record of records) {
      const encoded = encodeCoordinatorRecord(record);
      const size = encoded.key.length + (encoded.value?.length ?? 0);
      if (batch.length > 0 && batchBytes + size > MAX_BATCH_PAYLOAD_BYTES) {
        appends.push(
          log.append(encodeRecordBatch({ records: batch }), { origin: 'coordinator', ...options }),
        );
        batch = [];
        batchBytes = 0;
      }
      batch.push({ ...encoded, timestampMs });
      batchBytes += size;
    }
    appends.push(log.append(encodeRecordBatch({ records: batch }), { origin: 'coordinator', ...options }));
    const written = Promise.all(appends);
    const tracked: Promise<unknown> = written.then(
      () => this.#inFlight.delete(tracked),
      () => this.#inFlight.delete(tracked),
    );
    this.#inFlight.add(tracked);
    await written;
  }

  /** Resolves once every append started so far has finished (successfully or not). */
  async drain(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  /**
   * Reads a partition from its log start to its high watermark and hands every record to
   * `onRecord` in log order. Unreadable records are counted and skipped; a log that cannot be
   * read at all throws (the caller marks the partition failed).
   */
  async replay(partition: number, onRecord: (record: CoordinatorRecord) => void): Promise<ReplayReport> {
    const log = this.topics.partitionLog(OFFSETS_TOPIC, partition);
    const endOffset = log.highWatermark;
    let offset = log.logStartOffset;
    const report: ReplayReport = { records: 0, skipped: 0 };
    while (offset < endOffset) {
      const { records } = await log.read(offset, { maxBytes: READ_CHUNK_BYTES, maxOffset: endOffset });
      if (records.length === 0) break;
      const before = offset;
      for (const item of iterateBatches(records)) {
        if (item.kind !== 'batch') {
          throw new Error(`${OFFSETS_TOPIC}-${partition}: unreadable batch at offset ${offset}`);
        }
        const decoded = decodeRecordBatch(item.bytes);
        if (!decoded.ok) throw decoded.error;
        const batch = decoded.value;
        const nextOffset = Number(batch.baseOffset) + batch.lastOffsetDelta + 1;
        if (!isControlBatch(batch.attributes)) {
          for (const record of batch.records) {
            if (Number(record.offset) < offset) continue;
            const applied = decodeOne(record.key, record.value);
            if (applied) {
              report.records += 1;
              onRecord(applied);
            } else {
              report.skipped += 1;
            }
          }
        }
        offset = Math.max(offset, nextOffset);
      }
      // A read always returns the batch containing `offset`, so no progress means a broken log.
      if (offset === before)
        throw new Error(`${OFFSETS_TOPIC}-${partition}: no progress at offset ${offset}`);
    }
    return report;
  }
}

function decodeOne(key: Buffer | null, value: Buffer | null): CoordinatorRecord | undefined {
  if (key === null) return undefined;
  try {
    return decodeCoordinatorRecord(key, value);
  } catch {
    return undefined;
  }
}
