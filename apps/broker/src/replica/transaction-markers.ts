import { ErrorCode, encodeTransactionMarkerBatch, WeirError } from '@weir/protocol';
import type { Clock } from '../log/partition-log';
import type {
  TransactionMarkerWriter,
  WriteMarkersRequest,
  WrittenMarker,
} from '../txn/transaction-contracts';
import type { ReplicaManager } from './replica-manager';

const MAX_INT16 = 32767;
const MIN_INT32 = -2147483648;
const MAX_INT32 = 2147483647;

/**
 * The partition side of ending a transaction (transaction-contracts.ts): one COMMIT or ABORT
 * control batch per partition, appended by the partition's leader through its normal queue as the
 * coordinator's (origin 'coordinator', so clients can never write one) and fdatasync'd before the
 * answer, so the coordinator may record the transaction complete. The partitions are written
 * concurrently, each answering on its own: UNKNOWN_TOPIC_OR_PARTITION, NOT_LEADER_OR_FOLLOWER,
 * KAFKA_STORAGE_ERROR when offline or the write fails, INVALID_PRODUCER_EPOCH for a marker older
 * than the producer's epoch there, and TRANSACTION_COORDINATOR_FENCED for one older than the last
 * marker's coordinator epoch. The log indexes aborted ranges and the last stable offset moves as
 * the marker is appended.
 */
export class TransactionMarkers implements TransactionMarkerWriter {
  constructor(
    private readonly replicas: Pick<ReplicaManager, 'appendTransactionMarker'>,
    private readonly clock: Clock,
    /** Told about a marker write that failed for a reason that is not a Kafka error (a bug). */
    private readonly reportUnexpected: (error: unknown) => void,
  ) {}

  async writeMarkers(request: WriteMarkersRequest): Promise<WrittenMarker[]> {
    assertValid(request);
    return Promise.all(
      request.partitions.map(async ({ topic, partition }) => {
        const batch = encodeTransactionMarkerBatch({
          type: request.result,
          producerId: request.producerId,
          producerEpoch: request.producerEpoch,
          coordinatorEpoch: request.coordinatorEpoch,
          timestampMs: this.clock.nowMs(),
        });
        try {
          await this.replicas.appendTransactionMarker(topic, partition, batch);
          return { topic, partition, errorCode: ErrorCode.NONE };
        } catch (error) {
          if (error instanceof WeirError) return { topic, partition, errorCode: error.code };
          this.reportUnexpected(error);
          return { topic, partition, errorCode: ErrorCode.UNKNOWN_SERVER_ERROR };
        }
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
