import { Fetch } from '@weir/protocol';
import type { FetchPartitionResult } from '../../replica/fetch-reads';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { defineHandler } from '../handler';
import { convertToLegacyFormat } from '../legacy/legacy-fetch-records';

const RULES = API_ACL_RULES.Fetch;

/**
 * Fetch v0–11, sessionless (both target clients send session id 0 and epoch -1). Long-polls until
 * min_bytes arrive or max_wait_ms passes. From v9 a partition's current_leader_epoch is checked
 * (FENCED_LEADER_EPOCH, UNKNOWN_LEADER_EPOCH; -1 is not checked). isolation_level 1 (read_committed) reads up to the last
 * stable offset and lists the aborted transactions overlapping the records returned (an empty list
 * when there are none); read_uncommitted gets null there, as Kafka sends it. Partitions of topics
 * the principal may not read get TOPIC_AUTHORIZATION_FAILED and are not read. The records' bytes
 * count against the consumer's consumer_byte_rate quota. A follower's fetch (replica_id = its
 * broker id) reads up to the log end and reports its log end (docs/architecture.md §6.5); it
 * needs CLUSTER_ACTION (the broker principal) and is not throttled. Below v4 (no isolation level:
 * read_uncommitted) the stored batches are converted to the legacy message format the version
 * carries (docs/kafka-compat.md §6.6); from v4 they are sent as stored.
 */
export const fetchHandler = defineHandler({
  api: Fetch,
  versions: { min: 0, max: 11 },
  async handle(request, context, services) {
    const requested = request.topics.flatMap((topic) =>
      topic.partitions.map((partition) => ({
        topic: topic.topic,
        partition: partition.partition,
        fetchOffset: Number(partition.fetchOffset),
        partitionMaxBytes: partition.partitionMaxBytes,
        // KIP-320: -1 from clients that do not know it, and below v9 (the codec's default).
        currentLeaderEpoch: partition.currentLeaderEpoch,
      })),
    );
    // A follower (replica_id >= 0) is a broker: it needs CLUSTER_ACTION, and no quota applies.
    const follower = request.replicaId >= 0;
    const { allowed, denied } = follower
      ? context.access.allows(RULES.cluster)
        ? { allowed: requested, denied: [] }
        : { allowed: [], denied: requested }
      : context.access.split(RULES.topic, requested, (partition) => partition.topic);
    const deniedCode = follower ? RULES.cluster.denied : RULES.topic.denied;
    const fetched =
      allowed.length === 0 && denied.length > 0
        ? []
        : await services.replicas.fetch(
            {
              partitions: allowed,
              maxWaitMs: request.maxWaitMs,
              minBytes: request.minBytes,
              // Kafka caps an answer at what the consumer's quota allows in one window.
              maxBytes: follower
                ? request.maxBytes
                : Math.min(request.maxBytes, context.quota.fetchMaxBytes()),
              isolationLevel: request.isolationLevel === 1 ? 'read_committed' : 'read_uncommitted',
              ...(follower ? { followerId: request.replicaId } : {}),
            },
            context.signal,
          );
    if (context.header.apiVersion < 4) await convertToLegacyFormat(fetched, context.header.apiVersion);
    const results: FetchPartitionResult[] = [
      ...fetched,
      ...denied.map((partition) => ({
        topic: partition.topic,
        partition: partition.partition,
        errorCode: deniedCode,
        highWatermark: -1,
        lastStableOffset: -1,
        logStartOffset: -1,
        abortedTransactions: null,
        records: Buffer.alloc(0),
      })),
    ];
    const byTopic = new Map<string, typeof results>();
    for (const result of results) {
      const list = byTopic.get(result.topic) ?? [];
      list.push(result);
      byTopic.set(result.topic, list);
    }
    let responseBytes = 0;
    for (const result of results) responseBytes += result.records.length;
    return {
      // Over consumer_byte_rate the answer still carries its records; the connection is muted after it.
      throttleTimeMs: follower ? 0 : context.quota.fetched(responseBytes),
      errorCode: 0,
      sessionId: 0,
      responses: [...byTopic].map(([topic, partitions]) => ({
        topic,
        partitions: partitions.map((partition) => ({
          partitionIndex: partition.partition,
          errorCode: partition.errorCode,
          highWatermark: BigInt(partition.highWatermark),
          lastStableOffset: BigInt(partition.lastStableOffset),
          logStartOffset: BigInt(partition.logStartOffset),
          abortedTransactions:
            partition.abortedTransactions?.map(({ producerId, firstOffset }) => ({
              producerId: BigInt(producerId),
              firstOffset: BigInt(firstOffset),
            })) ?? null,
          preferredReadReplica: -1,
          records: partition.records,
        })),
      })),
    };
  },
});
