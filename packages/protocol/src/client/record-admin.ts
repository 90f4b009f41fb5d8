import { ErrorCode } from '../errors/error-codes';
import { errorForCode } from '../errors/weir-error';
import { DeleteRecords } from '../messages/apis/delete-records';
import { collect, unique } from './admin-items';
import type {
  AdminTimeoutOptions,
  DeletedRecords,
  DeleteRecordsRequest,
  PartitionOffsetRange,
} from './admin-types';
import type { Client } from './client';
import { askPartitionLeaders, type PartitionAnswer, partitionKey } from './leader-requests';
import { listOffsets, type OffsetQuery, type PartitionOffset } from './list-offsets';

/** Earliest, latest or by-time offsets, in the order asked; each partition at most once per call. */
export async function listPartitionOffsets(
  client: Client,
  queries: readonly OffsetQuery[],
  isolation: 'read_committed' | 'read_uncommitted' = 'read_uncommitted',
): Promise<PartitionOffset[]> {
  unique(
    'listOffsets',
    queries.map((query) => `${query.topic}-${query.partition}`),
  );
  const results = await listOffsets(client, queries, isolation);
  return collect('listOffsets', queries, results);
}

/**
 * The earliest and latest offset of every partition of a topic; with read_committed the latest is
 * the last stable offset, as a read_committed consumer's "latest" is.
 */
export async function topicOffsets(
  client: Client,
  topic: string,
  isolation: 'read_committed' | 'read_uncommitted' = 'read_uncommitted',
): Promise<PartitionOffsetRange[]> {
  const metadata = (await client.retry(() => client.topicsMetadata([topic]))).get(topic);
  if (metadata === undefined || metadata.errorCode !== ErrorCode.NONE) {
    throw errorForCode(metadata?.errorCode ?? ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, `Topic "${topic}".`);
  }
  const partitions = metadata.partitions.map((partition) => partition.partition);
  const [earliest, latest] = await Promise.all(
    (['earliest', 'latest'] as const).map((spec) =>
      listPartitionOffsets(
        client,
        partitions.map((partition) => ({ topic, partition, spec })),
        isolation,
      ),
    ),
  );
  return partitions.map((partition, index) => ({
    partition,
    earliest: earliest![index]!.offset,
    latest: latest![index]!.offset,
  }));
}

/** Deletes records below offsets (moves the log start), at each partition's leader. */
export async function deleteRecords(
  client: Client,
  requests: readonly DeleteRecordsRequest[],
  options: AdminTimeoutOptions,
): Promise<DeletedRecords[]> {
  unique(
    'deleteRecords',
    requests.map((request) => `${request.topic}-${request.partition}`),
  );
  const results = await askPartitionLeaders<DeleteRecordsRequest, DeletedRecords>(
    client,
    requests,
    async (leaderId, list) => {
      const topics = new Map<string, { partitionIndex: number; offset: bigint }[]>();
      for (const request of list) {
        const partitions = topics.get(request.topic) ?? [];
        partitions.push({ partitionIndex: request.partition, offset: request.beforeOffset });
        topics.set(request.topic, partitions);
      }
      const response = await client.send(leaderId, DeleteRecords, {
        topics: [...topics].map(([name, partitions]) => ({ name, partitions })),
        timeoutMs: options.timeoutMs ?? client.requestTimeoutMs,
      });
      const answers = new Map<string, PartitionAnswer<DeletedRecords>>();
      for (const topic of response.topics) {
        for (const partition of topic.partitions) {
          answers.set(
            partitionKey(topic.name, partition.partitionIndex),
            partition.errorCode === 0
              ? {
                  errorCode: 0,
                  value: {
                    topic: topic.name,
                    partition: partition.partitionIndex,
                    lowWatermark: partition.lowWatermark,
                  },
                }
              : { errorCode: partition.errorCode },
          );
        }
      }
      return answers;
    },
  );
  return collect('deleteRecords', requests, results);
}
