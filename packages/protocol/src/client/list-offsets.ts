import type { WeirError } from '../errors/weir-error';
import { ListOffsets } from '../messages/apis/list-offsets';
import type { RequestOf } from '../schema/api';
import type { Client } from './client';
import { askPartitionLeaders, type PartitionAnswer, partitionKey } from './leader-requests';

/** Which offset to look up: the log start, the log end, or the first record at or after a time. */
export type OffsetSpec = 'earliest' | 'latest' | { readonly timestampMs: number };

/** One partition's offset lookup. */
export interface OffsetQuery {
  readonly topic: string;
  readonly partition: number;
  readonly spec: OffsetSpec;
}

/** The answer to an {@link OffsetQuery}. */
export interface PartitionOffset {
  readonly topic: string;
  readonly partition: number;
  /**
   * The offset found. For `'latest'` it is the next offset to be written (the high watermark). For
   * a timestamp with no record at or after it, -1n.
   */
  readonly offset: bigint;
  /** The found record's timestamp for timestamp lookups; null otherwise and when none was found. */
  readonly timestampMs: number | null;
}

/** Kafka's special ListOffsets timestamps. */
const LATEST_TIMESTAMP = -1n;
const EARLIEST_TIMESTAMP = -2n;

function specTimestamp(spec: OffsetSpec): bigint {
  if (spec === 'earliest') return EARLIEST_TIMESTAMP;
  if (spec === 'latest') return LATEST_TIMESTAMP;
  if (!Number.isSafeInteger(spec.timestampMs) || spec.timestampMs < 0) {
    throw new RangeError(`timestampMs must be a non-negative integer, got ${spec.timestampMs}`);
  }
  return BigInt(spec.timestampMs);
}

/**
 * Looks offsets up at each partition's leader (see {@link askPartitionLeaders} for routing and
 * retries). Keyed by {@link partitionKey}; every query gets an offset or an error. With
 * `'read_committed'`, `'latest'` is the last stable offset: where a read_committed consumer's
 * reading ends while a transaction is open.
 */
export function listOffsets(
  client: Client,
  queries: readonly OffsetQuery[],
  isolationLevel: 'read_committed' | 'read_uncommitted' = 'read_uncommitted',
): Promise<Map<string, PartitionOffset | WeirError>> {
  for (const query of queries) specTimestamp(query.spec);
  return askPartitionLeaders<OffsetQuery, PartitionOffset>(client, queries, async (leaderId, list) => {
    const body: RequestOf<typeof ListOffsets> = {
      replicaId: -1,
      isolationLevel: isolationLevel === 'read_committed' ? 1 : 0,
      topics: [],
    };
    for (const query of list) {
      let topic = body.topics.find((candidate) => candidate.name === query.topic);
      if (topic === undefined) {
        topic = { name: query.topic, partitions: [] };
        body.topics.push(topic);
      }
      // -1: the SDK does not fence by leader epoch (KIP-320), as kafkajs does not.
      topic.partitions.push({
        partitionIndex: query.partition,
        currentLeaderEpoch: -1,
        timestamp: specTimestamp(query.spec),
        maxNumOffsets: 1,
      });
    }
    const response = await client.send(leaderId, ListOffsets, body);
    const byTime = new Map(
      list.map((query) => [partitionKey(query.topic, query.partition), typeof query.spec === 'object']),
    );
    const answers = new Map<string, PartitionAnswer<PartitionOffset>>();
    for (const topic of response.topics) {
      for (const partition of topic.partitions) {
        const key = partitionKey(topic.name, partition.partitionIndex);
        if (partition.errorCode !== 0) {
          answers.set(key, { errorCode: partition.errorCode });
          continue;
        }
        const found = byTime.get(key) === true && partition.offset >= 0n;
        answers.set(key, {
          errorCode: 0,
          value: {
            topic: topic.name,
            partition: partition.partitionIndex,
            offset: partition.offset,
            timestampMs: found ? Number(partition.timestamp) : null,
          },
        });
      }
    }
    return answers;
  });
}
