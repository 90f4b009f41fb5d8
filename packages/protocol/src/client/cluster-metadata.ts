import { ErrorCode } from '../errors/error-codes';
import { WeirError } from '../errors/weir-error';
import type { Metadata } from '../messages/apis/metadata';
import type { ResponseOf } from '../schema/api';

/** One broker of the cluster. */
export interface BrokerMetadata {
  readonly nodeId: number;
  readonly host: string;
  readonly port: number;
  readonly rack: string | null;
}

/** One partition of a topic. */
export interface PartitionMetadata {
  readonly partition: number;
  /** The leader's node id; -1 while there is none. */
  readonly leaderId: number;
  readonly replicaNodes: readonly number[];
  readonly isrNodes: readonly number[];
  readonly offlineReplicas: readonly number[];
  /** Usually 0; LEADER_NOT_AVAILABLE while a leader is being chosen. */
  readonly errorCode: number;
}

/** A topic as the cluster describes it. */
export interface TopicMetadata {
  readonly name: string;
  readonly isInternal: boolean;
  /** 0, or why the topic could not be described (UNKNOWN_TOPIC_OR_PARTITION, LEADER_NOT_AVAILABLE, …). */
  readonly errorCode: number;
  /** Sorted by partition number; entry `i` is partition `i`. */
  readonly partitions: readonly PartitionMetadata[];
}

/** The brokers, the controller and the cluster id. */
export interface ClusterMetadata {
  readonly clusterId: string | null;
  /** -1 when the cluster reports none. */
  readonly controllerId: number;
  readonly brokers: readonly BrokerMetadata[];
}

/** One Metadata answer: the cluster, and the topics that were asked about. */
export interface MetadataSnapshot {
  readonly cluster: ClusterMetadata;
  readonly topics: readonly TopicMetadata[];
}

/** Converts a Metadata response body into the SDK's types. */
export function snapshotFromResponse(body: ResponseOf<typeof Metadata>): MetadataSnapshot {
  return {
    cluster: {
      clusterId: body.clusterId,
      controllerId: body.controllerId,
      brokers: body.brokers.map((broker) => ({
        nodeId: broker.nodeId,
        host: broker.host,
        port: broker.port,
        rack: broker.rack,
      })),
    },
    // Only a topic asked by id (which the SDK never does) can come back without a name.
    topics: body.topics
      .flatMap((topic) => (topic.name === null ? [] : [{ ...topic, name: topic.name }]))
      .map((topic) => ({
        name: topic.name,
        isInternal: topic.isInternal,
        errorCode: topic.errorCode,
        partitions: topic.partitions
          .map((partition) => ({
            partition: partition.partitionIndex,
            leaderId: partition.leaderId,
            replicaNodes: partition.replicaNodes,
            isrNodes: partition.isrNodes,
            offlineReplicas: partition.offlineReplicas,
            errorCode: partition.errorCode,
          }))
          .sort((left, right) => left.partition - right.partition),
      })),
  };
}

/**
 * The codes after which the cached view of leaders and brokers is probably wrong: the leader moved
 * (a newer or older leader epoch, not the leader, a storage error that made it give the partition
 * up) or could not be reached.
 */
const STALE_METADATA_CODES: ReadonlySet<number> = new Set([
  ErrorCode.NOT_LEADER_OR_FOLLOWER,
  ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
  ErrorCode.LEADER_NOT_AVAILABLE,
  ErrorCode.FENCED_LEADER_EPOCH,
  ErrorCode.UNKNOWN_LEADER_EPOCH,
  ErrorCode.KAFKA_STORAGE_ERROR,
  ErrorCode.NOT_CONTROLLER,
  ErrorCode.NETWORK_EXCEPTION,
  ErrorCode.REQUEST_TIMED_OUT,
]);

/** Whether an error means metadata should be fetched again before the next attempt. */
export function needsMetadataRefresh(error: unknown): boolean {
  return error instanceof WeirError && STALE_METADATA_CODES.has(error.code);
}
