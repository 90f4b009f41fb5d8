/**
 * The per-partition log settings, in Kafka's topic-config terms (the names in comments) with units
 * in the field names. Topic configs override the broker-wide defaults; the config module maps
 * YAML, environment and topic configs onto this shape.
 */
export interface LogConfig {
  /** segment.bytes: roll to a new segment before the active one would exceed this. */
  segmentBytes: number;
  /** segment.ms: roll a segment this long after its first append. */
  segmentMs: number;
  /** index.interval.bytes: bytes of log between offset (and time) index entries. */
  indexIntervalBytes: number;
  /** segment.index.bytes: maximum size of each index file; a full index forces a roll. */
  maxIndexBytes: number;
  /** flush.messages: fdatasync after this many messages; Infinity leaves it to time and durability. */
  flushMessages: number;
  /** flush.ms: fdatasync data that has been unflushed this long. */
  flushMs: number;
  /** retention.ms: delete closed segments whose newest record is older; -1 keeps them forever. */
  retentionMs: number;
  /** retention.bytes: delete the oldest closed segments while the log is larger; -1 is unlimited. */
  retentionBytes: number;
  /** max.message.bytes: the largest batch accepted, in bytes. */
  maxMessageBytes: number;
  /** message.timestamp.type: keep the producer's timestamps or stamp the broker's append time. */
  timestampType: 'CreateTime' | 'LogAppendTime';
  /**
   * message.timestamp.before.max.ms: how far a CreateTime record's timestamp may lie before the
   * broker's clock; Number.POSITIVE_INFINITY for Kafka's Long.MAX (no limit).
   */
  timestampBeforeMaxMs: number;
  /**
   * message.timestamp.after.max.ms: how far a CreateTime record's timestamp may lie after the
   * broker's clock; Number.POSITIVE_INFINITY for Kafka's Long.MAX (no limit).
   */
  timestampAfterMaxMs: number;
  /**
   * message.timestamp.difference.max.ms, deprecated by the two above: each of them that is left
   * at no limit takes this value instead (batch-timestamps.ts).
   */
  timestampDifferenceMaxMs: number;
  /** file.delete.delay.ms: how long a `.deleted` segment waits before it is unlinked. */
  fileDeleteDelayMs: number;
  /**
   * min.insync.replicas: the in-sync replicas (the leader included) an acks=all produce needs; the
   * replica layer reads it here, as Kafka's Partition reads its LogConfig's.
   */
  minInsyncReplicas: number;
  /** unclean.leader.election.enable: an out-of-sync replica may lead when no in-sync one is left. */
  uncleanLeaderElectionEnable: boolean;
  /** cleanup.policy contains "compact": the cleaner keeps the latest record per key. */
  compact: boolean;
  /** cleanup.policy contains "delete": retention.ms / retention.bytes delete old segments. */
  deleteByRetention: boolean;
  /** min.cleanable.dirty.ratio: the share of the log not yet cleaned that makes it worth cleaning. */
  minCleanableDirtyRatio: number;
  /** min.compaction.lag.ms: a record stays uncompacted at least this long after it is written. */
  minCompactionLagMs: number;
  /**
   * max.compaction.lag.ms: a record is eligible for compaction at most this long after it is
   * written; Number.POSITIVE_INFINITY for Kafka's Long.MAX (no limit).
   */
  maxCompactionLagMs: number;
  /** delete.retention.ms: how long a tombstone (a record with a null value) is kept after cleaning. */
  deleteRetentionMs: number;
}

export const DEFAULT_LOG_CONFIG: Readonly<LogConfig> = Object.freeze({
  segmentBytes: 1024 * 1024 * 1024,
  segmentMs: 7 * 24 * 60 * 60 * 1000,
  indexIntervalBytes: 4096,
  maxIndexBytes: 10 * 1024 * 1024,
  flushMessages: Number.POSITIVE_INFINITY,
  // Kafka leaves flushing to the OS by default and relies on replication; a single node has no
  // replicas, so Weir fsyncs unflushed data every 100 ms unless told otherwise.
  flushMs: 100,
  retentionMs: 7 * 24 * 60 * 60 * 1000,
  retentionBytes: -1,
  maxMessageBytes: 1024 * 1024 + 12,
  timestampType: 'CreateTime',
  timestampBeforeMaxMs: Number.POSITIVE_INFINITY,
  timestampAfterMaxMs: Number.POSITIVE_INFINITY,
  timestampDifferenceMaxMs: Number.POSITIVE_INFINITY,
  fileDeleteDelayMs: 60_000,
  minInsyncReplicas: 1,
  uncleanLeaderElectionEnable: false,
  compact: false,
  deleteByRetention: true,
  minCleanableDirtyRatio: 0.5,
  minCompactionLagMs: 0,
  maxCompactionLagMs: Number.POSITIVE_INFINITY,
  deleteRetentionMs: 24 * 60 * 60 * 1000,
});
