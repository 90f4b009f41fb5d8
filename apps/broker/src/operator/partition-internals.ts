import { ErrorCode, type PartitionInternals, WeirError } from '@weir/protocol';
import type { ClusterView } from '../metadata/cluster-view';
import type { ReplicaManager } from '../replica/replica-manager';

/** One partition row, with the error that kept it from being read (KAFKA_STORAGE_ERROR when offline). */
export interface PartitionInternalsRow extends PartitionInternals {
  errorCode: number;
}

/**
 * A topic's partitions: where each lives (leader, replicas, in-sync replicas, from the cluster
 * view) and this broker's replica of it (offsets, segments, producer state), for the console's
 * partition table. Everything is read from memory (no disk access), so a topic with thousands of
 * partitions answers at once. A partition with no readable replica here answers
 * KAFKA_STORAGE_ERROR (its log is offline) or NOT_LEADER_OR_FOLLOWER (it lives elsewhere).
 */
export class PartitionInternalsView {
  constructor(
    private readonly view: ClusterView,
    private readonly replicas: Pick<ReplicaManager, 'localReplica' | 'isOffline'>,
  ) {}

  describePartitions(topic: string): PartitionInternalsRow[] {
    const record = this.view.topic(topic);
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
    const assignment = this.view.assignment(topic, partition);
    const placement = {
      partition,
      leaderId: assignment?.leader ?? -1,
      replicas: [...(assignment?.replicas ?? [])],
      isr: [...(assignment?.isr ?? [])],
    };
    const local = this.replicas.localReplica(topic, partition);
    if (local === undefined) {
      return {
        ...placement,
        errorCode: this.replicas.isOffline(topic, partition)
          ? ErrorCode.KAFKA_STORAGE_ERROR
          : ErrorCode.NOT_LEADER_OR_FOLLOWER,
        logStartOffset: -1n,
        logEndOffset: -1n,
        highWatermark: -1n,
        lastStableOffset: -1n,
        sizeBytes: 0n,
        segments: [],
        producerCount: 0,
      };
    }
    const { offsets, log } = local;
    return {
      ...placement,
      errorCode: ErrorCode.NONE,
      logStartOffset: BigInt(offsets.logStartOffset),
      logEndOffset: BigInt(offsets.logEndOffset),
      highWatermark: BigInt(offsets.highWatermark),
      // Where the earliest open transaction starts, bounded by the high watermark.
      lastStableOffset: BigInt(offsets.lastStableOffset),
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
