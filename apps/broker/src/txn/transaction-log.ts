import { decodeRecordBatch, encodeRecordBatch, isControlBatch, iterateBatches } from '@weir/protocol';
import type { TopicManager } from '../topics/topic-manager';
import {
  decodeTransactionRecord,
  encodeTransactionRecord,
  type TransactionRecord,
} from './transaction-records';

/** Kafka's name for the topic that holds the transaction coordinator's state. */
export const TRANSACTION_STATE_TOPIC = '__transaction_state';

/**
 * Topic configs of `__transaction_state` when the broker creates it. Retention is off: deleting old
 * segments would lose the state of quiet transactional ids (compaction is what keeps it small in
 * Kafka). Small segments, as Kafka's transaction.state.log.segment.bytes (100 MiB).
 */
const TRANSACTION_TOPIC_CONFIGS: Record<string, string> = {
  'retention.ms': '-1',
  'segment.bytes': String(100 * 1024 * 1024),
};

const READ_CHUNK_BYTES = 1024 * 1024;

/** Where the coordinator persists its records: one `__transaction_state` partition per id. */
export interface TransactionStore {
  /** 0 until the topic exists. */
  readonly partitionCount: number;
  /** Creates the topic unless it exists; the first write of a new transactional id waits for it. */
  ensureCreated(): Promise<void>;
  /** Appends records to a partition; with `durable`, resolves once they are fdatasync'd. */
  write(
    partition: number,
    records: readonly TransactionRecord[],
    options: { durable: boolean },
  ): Promise<void>;
}

/** What the coordinator loads its state from at start. */
export interface TransactionLogSource {
  readonly partitionCount: number;
  /** Hands every record of a partition to `onRecord` in log order; throws when the log is unreadable. */
  replay(
    partition: number,
    onRecord: (record: TransactionRecord) => void,
  ): Promise<{ records: number; skipped: number }>;
}

/** {@link TransactionStore} over the broker's own partition logs. */
export class TransactionLog implements TransactionStore, TransactionLogSource {
  #partitionCount = 0;
  #configuredPartitions = 1;
  #creating: Promise<void> | undefined;
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
   * Finds the topic at start. As in Kafka it is created only when the first transactional id needs
   * it, so brokers without transactions carry no empty partitions. An existing topic keeps its
   * partition count, whatever the configuration says now: changing it would move ids to other
   * partitions and lose their state.
   */
  open(configuredPartitions: number): { exists: boolean; partitionCount: number } {
    this.#configuredPartitions = configuredPartitions;
    const existing = this.topics.getTopic(TRANSACTION_STATE_TOPIC);
    this.#partitionCount = existing?.partitionCount ?? 0;
    return { exists: existing !== undefined, partitionCount: this.#partitionCount };
  }

  ensureCreated(): Promise<void> {
    if (this.#partitionCount > 0) return Promise.resolve();
    // Concurrent first writes share one creation.
    this.#creating ??= this.#create().finally(() => {
      this.#creating = undefined;
    });
    return this.#creating;
  }

  async #create(): Promise<void> {
    const existing = this.topics.getTopic(TRANSACTION_STATE_TOPIC);
    if (existing) {
      this.#partitionCount = existing.partitionCount;
      return;
    }
    const created = await this.topics.createTopic(
      {
        name: TRANSACTION_STATE_TOPIC,
        partitionCount: this.#configuredPartitions,
        configs: { ...TRANSACTION_TOPIC_CONFIGS },
      },
      { internal: true },
    );
    this.#partitionCount = created.partitionCount;
  }

  async write(
    partition: number,
    records: readonly TransactionRecord[],
    options: { durable: boolean },
  ): Promise<void> {
    if (records.length === 0) return;
    const log = this.topics.partitionLog(TRANSACTION_STATE_TOPIC, partition);
    const timestampMs = this.clock.nowMs();
    const batch = records.map((record) => ({ ...encodeTransactionRecord(record), timestampMs }));
    const written = log.append(encodeRecordBatch({ records: batch }), { origin: 'coordinator', ...options });
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

  async replay(
    partition: number,
    onRecord: (record: TransactionRecord) => void,
  ): Promise<{ records: number; skipped: number }> {
    const log = this.topics.partitionLog(TRANSACTION_STATE_TOPIC, partition);
    const endOffset = log.highWatermark;
    let offset = log.logStartOffset;
    const report = { records: 0, skipped: 0 };
    while (offset < endOffset) {
      const { records } = await log.read(offset, { maxBytes: READ_CHUNK_BYTES, maxOffset: endOffset });
      if (records.length === 0) break;
      const before = offset;
      for (const item of iterateBatches(records)) {
        if (item.kind !== 'batch') {
          throw new Error(`${TRANSACTION_STATE_TOPIC}-${partition}: unreadable batch at offset ${offset}`);
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
      if (offset === before) {
        throw new Error(`${TRANSACTION_STATE_TOPIC}-${partition}: no progress at offset ${offset}`);
      }
    }
    return report;
  }
}

function decodeOne(key: Buffer | null, value: Buffer | null): TransactionRecord | undefined {
  if (key === null) return undefined;
  try {
    return decodeTransactionRecord(key, value);
  } catch {
    return undefined;
  }
}
