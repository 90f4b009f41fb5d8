import { ErrorCode } from '../errors/error-codes';
import { DescribeLogDirs } from '../messages/apis/describe-log-dirs';
import { brokerError } from './admin-error';
import type { Client } from './client';

/** The partitions to describe: every partition when absent. */
export type LogDirTopicFilter = readonly { topic: string; partitions: readonly number[] }[];

/** One partition replica in a log directory. */
export interface LogDirReplica {
  topic: string;
  partition: number;
  sizeBytes: number;
  /** How far the replica's log end is behind its high watermark; 0 for a leader. */
  offsetLag: number;
  /** True for a log being moved to this directory to replace the current one (never on Weir). */
  isFuture: boolean;
}

/** One log directory of one broker. */
export interface LogDirDescription {
  brokerId: number;
  path: string;
  /** The directory's own error, e.g. KAFKA_STORAGE_ERROR when it is offline; NONE when fine. */
  errorCode: number;
  /** The file system's size and free space; null when the broker does not say (before v4). */
  totalBytes: number | null;
  usableBytes: number | null;
  replicas: LogDirReplica[];
}

/**
 * The log directories of one broker, or of every broker in the metadata when `brokerId` is absent
 * (DescribeLogDirs is answered by each broker about itself). A broker always has a log directory,
 * so an answer without any is a denial: before v3 the response has no error code to say so, and
 * CLUSTER_AUTHORIZATION_FAILED is thrown, as Kafka's AdminClient does.
 */
export async function describeLogDirs(
  client: Client,
  brokerId: number | undefined,
  topics: LogDirTopicFilter | undefined,
): Promise<LogDirDescription[]> {
  const brokerIds =
    brokerId !== undefined
      ? [brokerId]
      : (await client.refreshMetadata([])).cluster.brokers
          .map((broker) => broker.nodeId)
          .sort((a, b) => a - b);
  const request = {
    topics:
      topics === undefined
        ? null
        : topics.map((entry) => ({ topic: entry.topic, partitions: [...entry.partitions] })),
  };
  const perBroker = await Promise.all(
    brokerIds.map(async (id) => {
      const response = await client.retry(() => client.send(id, DescribeLogDirs, request));
      if (response.errorCode !== ErrorCode.NONE || response.results.length === 0) {
        const code =
          response.errorCode !== ErrorCode.NONE ? response.errorCode : ErrorCode.CLUSTER_AUTHORIZATION_FAILED;
        throw brokerError(code, null, `The log directories of broker ${id} could not be described.`);
      }
      return response.results.map(
        (result): LogDirDescription => ({
          brokerId: id,
          path: result.logDir,
          errorCode: result.errorCode,
          totalBytes: result.totalBytes < 0n ? null : Number(result.totalBytes),
          usableBytes: result.usableBytes < 0n ? null : Number(result.usableBytes),
          replicas: result.topics.flatMap((topic) =>
            topic.partitions.map((partition) => ({
              topic: topic.name,
              partition: partition.partitionIndex,
              sizeBytes: Number(partition.partitionSize),
              offsetLag: Number(partition.offsetLag),
              isFuture: partition.isFutureKey,
            })),
          ),
        }),
      );
    }),
  );
  return perBroker.flat();
}
