import type { ClusterView } from '../metadata/cluster-view';
import {
  type CoordinatorLogAccess,
  InternalTopicRecords,
  type ReplayReport,
} from '../topics/internal-topic-records';
import type { TopicManager } from '../topics/topic-manager';
import {
  decodeTransactionRecord,
  encodeTransactionRecord,
  isOutdatedTransactionRecord,
  type TransactionRecord,
} from './transaction-records';

/** Kafka's name for the topic that holds the transaction coordinator's state. */
export const TRANSACTION_STATE_TOPIC = '__transaction_state';

/**
 * Topic configs of `__transaction_state` when the broker creates it. Retention is off: deleting old
 * segments would lose the state of quiet transactional ids; compaction keeps it small instead. Small segments, as Kafka's transaction.state.log.segment.bytes (100 MiB).
 */
const TRANSACTION_TOPIC_CONFIGS: Record<string, string> = {
  // One key per transactional id, tombstoned when it expires: compaction keeps the topic as large
  // as the live ids, as in Kafka.
  'cleanup.policy': 'compact',
  'retention.ms': '-1',
  'segment.bytes': String(100 * 1024 * 1024),
};

/**
 * Where the coordinator persists its records: one `__transaction_state` partition per id. Every
 * write carries the leader epoch of the shard that makes it, so the replica layer can refuse a
 * shard that no longer leads the partition.
 */
export interface TransactionStore {
  /** 0 until the topic exists. */
  readonly partitionCount: number;
  /** Creates the topic unless it exists; the first InitProducerId of a standalone broker waits for it. */
  ensureCreated(): Promise<void>;
  /** Appends records to a partition; with `durable`, resolves once they are fdatasync'd. */
  write(
    partition: number,
    leaderEpoch: number,
    records: readonly TransactionRecord[],
    options: { durable: boolean },
  ): Promise<void>;
}

/** What the coordinator loads a shard from when it gains a partition. */
export interface TransactionLogSource {
  readonly partitionCount: number;
  /** Hands every record of a partition to `onRecord` in log order; throws when the log is unreadable. */
  replay(
    partition: number,
    leaderEpoch: number,
    onRecord: (record: TransactionRecord) => void,
  ): Promise<ReplayReport>;
}

/** {@link TransactionStore} over the broker's own partition logs. */
export class TransactionLog implements TransactionStore, TransactionLogSource {
  #configuredPartitions = 1;
  #creating: Promise<void> | undefined;
  readonly #records: InternalTopicRecords<TransactionRecord>;

  constructor(
    private readonly topics: TopicManager,
    private readonly view: ClusterView,
    logs: CoordinatorLogAccess,
    clock: { nowMs(): number },
    /** transaction.state.log.replication.factor, capped by the live brokers at creation. */
    private readonly replicationFactor: number,
  ) {
    this.#records = new InternalTopicRecords(
      logs,
      TRANSACTION_STATE_TOPIC,
      {
        encode: encodeTransactionRecord,
        decode: decodeTransactionRecord,
        isOutdated: isOutdatedTransactionRecord,
      },
      clock,
    );
  }

  /** 0 until the topic exists; read from the cluster view, which every broker shares. */
  get partitionCount(): number {
    return this.view.topic(TRANSACTION_STATE_TOPIC)?.partitionCount ?? 0;
  }

  /**
   * Finds the topic at start. As in Kafka it is created only when the first transactional id needs
   * it, so brokers without transactions carry no empty partitions. An existing topic keeps its
   * partition count, whatever the configuration says now: changing it would move ids to other
   * partitions and lose their state.
   */
  open(configuredPartitions: number): { exists: boolean; partitionCount: number } {
    this.#configuredPartitions = configuredPartitions;
    const existing = this.view.topic(TRANSACTION_STATE_TOPIC);
    return { exists: existing !== undefined, partitionCount: this.partitionCount };
  }

  ensureCreated(): Promise<void> {
    if (this.partitionCount > 0) return Promise.resolve();
    // Concurrent first writes share one creation.
    this.#creating ??= this.#create().finally(() => {
      this.#creating = undefined;
    });
    return this.#creating;
  }

  async #create(): Promise<void> {
    if (this.view.topic(TRANSACTION_STATE_TOPIC)) return;
    await this.topics.createInternalTopic(
      {
        name: TRANSACTION_STATE_TOPIC,
        partitionCount: this.#configuredPartitions,
        configs: { ...TRANSACTION_TOPIC_CONFIGS },
      },
      this.replicationFactor,
    );
  }

  write(
    partition: number,
    leaderEpoch: number,
    records: readonly TransactionRecord[],
    options: { durable: boolean },
  ): Promise<void> {
    return this.#records.write(partition, leaderEpoch, records, options);
  }

  /** Resolves once every append started so far has finished (successfully or not). */
  drain(): Promise<void> {
    return this.#records.drain();
  }

  replay(
    partition: number,
    leaderEpoch: number,
    onRecord: (record: TransactionRecord) => void,
  ): Promise<ReplayReport> {
    return this.#records.replay(partition, leaderEpoch, onRecord);
  }
}
