import { ErrorCode, type RequestOf, WriteTxnMarkers } from '@weir/protocol';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import type { TransactionMarkerWriter } from '../../txn/transaction-contracts';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.WriteTxnMarkers;

type MarkerEntry = RequestOf<typeof WriteTxnMarkers>['markers'][number];

/** Producer ids are int64 on the wire; the log keeps them exact only up to 2^53 - 1. */
const MAX_PRODUCER_ID = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * WriteTxnMarkers v0 (internal listener; another broker's transaction coordinator): appends each
 * marker's COMMIT or ABORT control batch to the partitions this broker leads, through the replica
 * layer (replica/transaction-markers.ts), and answers per partition: NONE once durable,
 * NOT_LEADER_OR_FOLLOWER where it does not lead, UNKNOWN_TOPIC_OR_PARTITION, KAFKA_STORAGE_ERROR,
 * INVALID_PRODUCER_EPOCH or TRANSACTION_COORDINATOR_FENCED as the partition decides, and
 * INVALID_REQUEST for a marker whose producer id or epoch is out of range. Markers are written in
 * request order, one after another, so two markers for one partition land in that order. Needs
 * CLUSTER_ACTION, which only the broker principal (a super user there) has.
 */
export const writeTxnMarkersHandler = defineHandler({
  api: WriteTxnMarkers,
  versions: { min: 0, max: 0 },
  async handle(request, context, services) {
    const allowed = context.access.allows(RULES.cluster);
    const markers = [];
    for (const marker of request.markers) {
      const codes = allowed
        ? await writeMarker(marker, services.transactionMarkers)
        : () => RULES.cluster.denied;
      markers.push({
        producerId: marker.producerId,
        topics: marker.topics.map((topic) => ({
          name: topic.name,
          partitions: topic.partitionIndexes.map((partitionIndex) => ({
            partitionIndex,
            errorCode: codes(topic.name, partitionIndex),
          })),
        })),
      });
    }
    return { markers };
  },
});

/** Writes one marker to its partitions (each once, however often listed); returns each one's code. */
async function writeMarker(
  marker: MarkerEntry,
  writer: TransactionMarkerWriter,
): Promise<(topic: string, partition: number) => number> {
  const { producerId, producerEpoch } = marker;
  if (producerId < 0n || producerId > MAX_PRODUCER_ID || producerEpoch < 0) {
    return () => ErrorCode.INVALID_REQUEST;
  }
  const partitions = new Map<string, { topic: string; partition: number }>();
  for (const topic of marker.topics) {
    for (const partition of topic.partitionIndexes) {
      partitions.set(keyOf(topic.name, partition), { topic: topic.name, partition });
    }
  }
  const written = await writer.writeMarkers({
    producerId,
    producerEpoch,
    result: marker.transactionResult ? 'commit' : 'abort',
    coordinatorEpoch: marker.coordinatorEpoch,
    partitions: [...partitions.values()],
  });
  const codes = new Map(written.map((row) => [keyOf(row.topic, row.partition), row.errorCode]));
  return (topic, partition) => codes.get(keyOf(topic, partition)) ?? ErrorCode.UNKNOWN_SERVER_ERROR;
}

function keyOf(topic: string, partition: number): string {
  return `${topic}\u0000${partition}`;
}
