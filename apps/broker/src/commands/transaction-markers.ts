import { ErrorCode, encodeTransactionMarkerBatch } from '@weir/protocol';
import type { Clock } from '../log/partition-log';
import type { TopicManager } from '../topics/topic-manager';
import type {
  TransactionMarkerWriter,
  WriteMarkersRequest,
  WrittenMarker,
} from '../txn/transaction-contracts';
import { resultOf } from './command-result';

const MAX_INT16 = 32767;
const MIN_INT32 = -2147483648;
const MAX_INT32 = 2147483647;

/**
 * The partition side of ending a transaction (transaction-contracts.ts): one COMMIT or ABORT
 * control batch per partition, appended through the partition's normal queue as the coordinator's
 * (origin 'coordinator', so clients can never write one) and fdatasync'd before the answer, so the
 * coordinator may record the transaction complete. The partitions are written concurrently, each
 * answering on its own: UNKNOWN_TOPIC_OR_PARTITION, KAFKA_STORAGE_ERROR when offline or the write
 * fails, INVALID_PRODUCER_EPOCH for a marker older than the producer's epoch there, and
 * TRANSACTION_COORDINATOR_FENCED for one older than the last marker's coordinator epoch. The log
 * indexes aborted ranges and moves the last stable offset as the marker is appended.
 */
export class TransactionMarkers implements TransactionMarkerWriter {
  constructor(
    private readonly topics: TopicManager,
    private readonly clock: Clock,
  ) {}

  async writeMarkers(request: WriteMarkersRequest): Promise<WrittenMarker[]> {
    assertValid(request);
    return Promise.all(
      request.partitions.map(async ({ topic, partition }) => {
        const written = await resultOf(async () => {
          const log = this.topics.partitionLog(topic, partition);
          const batch = encodeTransactionMarkerBatch({
            type: request.result,
            producerId: request.producerId,
            producerEpoch: request.producerEpoch,
            coordinatorEpoch: request.coordinatorEpoch,
            timestampMs: this.clock.nowMs(),
          });
          await log.append(batch, { origin: 'coordinator', durable: true });
        });
        return { topic, partition, errorCode: written.ok ? ErrorCode.NONE : written.errorCode };
      }),
    );
  }
}

/** The coordinator builds these requests itself, so a bad one is a bug there, not client input. */
function assertValid(request: WriteMarkersRequest): void {
  const { producerId, producerEpoch, coordinatorEpoch, result, partitions } = request;
  if (producerId < 0n || producerId > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError(`writeMarkers: producer id ${producerId} is out of range`);
  }
  if (!Number.isInteger(producerEpoch) || producerEpoch < 0 || producerEpoch > MAX_INT16) {
    throw new RangeError(`writeMarkers: producer epoch ${producerEpoch} is out of range`);
  }
  if (!Number.isInteger(coordinatorEpoch) || coordinatorEpoch < MIN_INT32 || coordinatorEpoch > MAX_INT32) {
    throw new RangeError(`writeMarkers: coordinator epoch ${coordinatorEpoch} is out of range`);
  }
  if (result !== 'commit' && result !== 'abort') throw new RangeError(`writeMarkers: result ${result}`);
  const seen = new Set<string>();
  for (const { topic, partition } of partitions) {
    const key = `${topic}\u0000${partition}`;
    // Two markers for one partition would be written one after the other; the second is a bug.
    if (seen.has(key)) throw new RangeError(`writeMarkers: ${topic}-${partition} is listed twice`);
    seen.add(key);
  }
}
