import { ErrorCode, type PartitionInternals, WeirError } from '@weir/protocol';
import type { LogManager } from '../log/log-manager';
import type { TopicManager } from '../topics/topic-manager';

/** One partition row, with the error that kept it from being read (KAFKA_STORAGE_ERROR when offline). */
export interface PartitionInternalsRow extends PartitionInternals {
  errorCode: number;
}

/**
 * A topic's partitions as this broker holds them: offsets, segments and producer state, for the
 * console's partition table. Everything is read from memory (no disk access), so a topic with
 * thousands of partitions answers at once.
 */
export class PartitionInternalsCommands {
  constructor(
    private readonly topics: TopicManager,
    private readonly logs: LogManager,
    private readonly nodeId: number,
  ) {}

  describePartitions(topic: string): PartitionInternalsRow[] {
    const record = this.topics.getTopic(topic);
    if (record === undefined) {
      throw new WeirError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, {
        detail: `topic "${topic}" does not exist`,
      });
    }
    const rows: PartitionInternalsRow[] = [];
    for (let partition = 0; partition < record.partitionCount; partition++) {
      rows.push(this.#describe(topic, partition));
    }
    return rows;
  }

  #describe(topic: string, partition: number): PartitionInternalsRow {
    // A single broker leads every partition and is its only replica and in-sync replica.
    const placement = { partition, leaderId: this.nodeId, replicas: [this.nodeId], isr: [this.nodeId] };
    const log = this.logs.getLog(topic, partition);
    if (log === undefined || log.isOffline) {
      return {
        ...placement,
        errorCode: ErrorCode.KAFKA_STORAGE_ERROR,
        logStartOffset: -1n,
        logEndOffset: -1n,
        highWatermark: -1n,
        lastStableOffset: -1n,
        sizeBytes: 0n,
        segments: [],
        producerCount: 0,
      };
    }
    return {
      ...placement,
      errorCode: ErrorCode.NONE,
      logStartOffset: BigInt(log.logStartOffset),
      logEndOffset: BigInt(log.logEndOffset),
      highWatermark: BigInt(log.highWatermark),
      // Where the earliest open transaction starts, bounded by the high watermark.
      lastStableOffset: BigInt(log.lastStableOffset),
      sizeBytes: BigInt(log.sizeBytes),
      segments: log.segments.map((segment) => ({
        baseOffset: BigInt(segment.baseOffset),
        sizeBytes: BigInt(segment.sizeBytes),
        maxTimestampMs: BigInt(segment.maxTimestampMs),
      })),
      producerCount: log.producerState.producerCount,
    };
  }
}
