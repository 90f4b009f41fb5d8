import type { ClusterView } from '../metadata/cluster-view';
import {
  type CoordinatorLogAccess,
  InternalTopicRecords,
  type ReplayReport,
} from '../topics/internal-topic-records';
import type { TopicManager } from '../topics/topic-manager';
import {
  type CoordinatorRecord,
  decodeCoordinatorRecord,
  encodeCoordinatorRecord,
  isOutdatedCoordinatorRecord,
} from './offsets-records';

export type { ReplayReport } from '../topics/internal-topic-records';

/** Kafka's name for the topic that holds committed offsets and group metadata. */
export const OFFSETS_TOPIC = '__consumer_offsets';

/**
 * Topic configs of `__consumer_offsets` when the broker creates it. Compacted, as in Kafka: every
 * offset and group is one key whose latest record is its state and deletions are tombstones, so
 * the topic stays as large as the live state and a start replays only that. Retention by time is
 * off (a quiet group's offsets must not age out of the log; offsets.retention.minutes expires them
 * with tombstones instead). 100 MiB segments and 16 MiB batches are Kafka's
 * offsets.topic.segment.bytes and room for the group metadata of large groups (every member's
 * subscription and assignment in one record).
 */
const OFFSETS_TOPIC_CONFIGS: Record<string, string> = {
  'cleanup.policy': 'compact',
  'retention.ms': '-1',
  'segment.bytes': String(100 * 1024 * 1024),
  'max.message.bytes': String(16 * 1024 * 1024),
};

/**
 * Where the coordinator persists its records: one `__consumer_offsets` partition per group. Every
 * write carries the leader epoch of the shard that makes it, so the replica layer can refuse a
 * shard that no longer leads the partition.
 */
export interface GroupStore {
  readonly partitionCount: number;
  /** Appends records to a partition; with `durable`, resolves once they are fdatasync'd. */
  write(
    partition: number,
    leaderEpoch: number,
    records: readonly CoordinatorRecord[],
    options: { durable: boolean },
  ): Promise<void>;
}

/** What the coordinator loads a shard from when it gains a partition. */
export interface GroupLogSource {
  readonly partitionCount: number;
  /** Hands every record of a partition to `onRecord` in log order; throws when the log is unreadable. */
  replay(
    partition: number,
    leaderEpoch: number,
    onRecord: (record: CoordinatorRecord) => void,
  ): Promise<ReplayReport>;
}

/** {@link GroupStore} over the broker's own partition logs. */
export class OffsetsTopicStore implements GroupStore, GroupLogSource {
  readonly #records: InternalTopicRecords<CoordinatorRecord>;

  constructor(
    private readonly topics: TopicManager,
    private readonly view: ClusterView,
    logs: CoordinatorLogAccess,
    clock: { nowMs(): number },
    /** offsets.topic.replication.factor, capped by the live brokers at creation. */
    private readonly replicationFactor: number,
  ) {
    this.#records = new InternalTopicRecords(
      logs,
      OFFSETS_TOPIC,
      {
        encode: encodeCoordinatorRecord,
        decode: decodeCoordinatorRecord,
        isOutdated: isOutdatedCoordinatorRecord,
      },
      clock,
    );
  }

  /** 0 until the topic exists; read from the cluster view, which every broker shares. */
  get partitionCount(): number {
    return this.view.topic(OFFSETS_TOPIC)?.partitionCount ?? 0;
  }

  /**
   * Creates the topic on first start. An existing topic keeps its partition count, whatever the
   * configuration says now: changing it would move groups to other partitions and lose them.
   */
  async open(configuredPartitions: number): Promise<{ created: boolean; partitionCount: number }> {
    const existing = this.view.topic(OFFSETS_TOPIC);
    if (existing) {
      // A topic created before compaction existed is compacted from now on.
      await this.topics.compactInternalTopic(OFFSETS_TOPIC);
      return { created: false, partitionCount: existing.partitionCount };
    }
    const created = await this.topics.createInternalTopic(
      { name: OFFSETS_TOPIC, partitionCount: configuredPartitions, configs: { ...OFFSETS_TOPIC_CONFIGS } },
      this.replicationFactor,
    );
    return { created: true, partitionCount: created.partitionCount };
  }

  write(
    partition: number,
    leaderEpoch: number,
    records: readonly CoordinatorRecord[],
    options: { durable: boolean },
  ): Promise<void> {
    return this.#records.write(partition, leaderEpoch, records, options);
  }

  /** Resolves once every append started so far has finished (successfully or not). */
  drain(): Promise<void> {
    return this.#records.drain();
  }

  /** Every record of a partition in log order; see {@link InternalTopicRecords.replay}. */
  replay(
    partition: number,
    leaderEpoch: number,
    onRecord: (record: CoordinatorRecord) => void,
  ): Promise<ReplayReport> {
    return this.#records.replay(partition, leaderEpoch, onRecord);
  }
}
