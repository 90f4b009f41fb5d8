import { ErrorCode, type ResponseOf, WeirError, WriteTxnMarkers } from '@weir/protocol';
import type { ClusterView } from '../metadata/cluster-view';
import type {
  TopicPartitionRef,
  TransactionMarkerWriter,
  WriteMarkersRequest,
  WrittenMarker,
} from '../txn/transaction-contracts';
import type { InterBrokerClient } from './inter-broker-client';

/**
 * Outcomes that say "not written yet, try again": the partition has no leader, the broker asked no
 * longer leads it, or the leader could not be reached. Kafka's TransactionMarkerChannelManager
 * retries these until the marker is written; the others (the topic was deleted, the producer or
 * the coordinator was fenced) end the attempt.
 */
const ROUTING_RETRIABLE: ReadonlySet<number> = new Set([
  ErrorCode.LEADER_NOT_AVAILABLE,
  ErrorCode.NOT_LEADER_OR_FOLLOWER,
  ErrorCode.NETWORK_EXCEPTION,
  ErrorCode.REQUEST_TIMED_OUT,
  ErrorCode.NOT_ENOUGH_REPLICAS,
  ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND,
]);

export interface RoutedTransactionMarkersDeps {
  view: Pick<ClusterView, 'assignment' | 'hasPartition' | 'localBrokerId'>;
  /** This broker's replica layer: markers for the partitions it leads. */
  local: TransactionMarkerWriter;
  peers: Pick<InterBrokerClient, 'send'>;
  /** Whether a partition led by `leader` is written through the network (true for every other broker). */
  isRemote(leader: number): boolean;
  /** How long one call keeps retrying partitions it could not write yet, before answering their errors. */
  retryWindowMs: number;
  /** The wait between attempts, doubling up to `maxBackoffMs`. */
  initialBackoffMs: number;
  maxBackoffMs: number;
  nowMs(): number;
  delay(ms: number): Promise<void>;
  /** False once the broker is stopping: partitions not written yet are answered without waiting. */
  running(): boolean;
}

/**
 * The coordinator's marker writer in a cluster (docs/architecture.md §5): each partition's marker
 * goes to its leader as the cluster view knows it now, the local replica layer when that is this
 * broker, otherwise one WriteTxnMarkers request per leader over the inter-broker client. A
 * partition without a leader, led elsewhere than the view said, or on a peer that cannot be
 * reached is routed again, with backoff, for up to `retryWindowMs`; whatever is still not written
 * then is answered with its error, and the transaction finisher tries the completion again later
 * (it keeps trying until the markers are written or the coordinator no longer owns the id).
 */
export class RoutedTransactionMarkers implements TransactionMarkerWriter {
  constructor(private readonly deps: RoutedTransactionMarkersDeps) {}

  async writeMarkers(request: WriteMarkersRequest): Promise<WrittenMarker[]> {
    const { deps } = this;
    const outcomes = new Map<string, number>();
    const giveUpAtMs = deps.nowMs() + deps.retryWindowMs;
    let pending: readonly TopicPartitionRef[] = request.partitions;
    let backoffMs = deps.initialBackoffMs;
    for (;;) {
      const written = await this.#writeOnce(request, pending);
      const again: TopicPartitionRef[] = [];
      for (const marker of written) {
        outcomes.set(keyOf(marker), marker.errorCode);
        if (ROUTING_RETRIABLE.has(marker.errorCode)) again.push(marker);
      }
      if (again.length === 0 || !deps.running() || deps.nowMs() + backoffMs > giveUpAtMs) break;
      await deps.delay(backoffMs);
      backoffMs = Math.min(deps.maxBackoffMs, backoffMs * 2);
      pending = again.map(({ topic, partition }) => ({ topic, partition }));
    }
    return request.partitions.map(({ topic, partition }) => ({
      topic,
      partition,
      errorCode: outcomes.get(keyOf({ topic, partition })) ?? ErrorCode.UNKNOWN_SERVER_ERROR,
    }));
  }

  /** One attempt: every partition routed to its leader now, the leaders written concurrently. */
  async #writeOnce(
    request: WriteMarkersRequest,
    partitions: readonly TopicPartitionRef[],
  ): Promise<WrittenMarker[]> {
    const { view } = this.deps;
    const results: WrittenMarker[] = [];
    const local: TopicPartitionRef[] = [];
    const byLeader = new Map<number, TopicPartitionRef[]>();
    for (const ref of partitions) {
      if (!view.hasPartition(ref.topic, ref.partition)) {
        results.push({ ...ref, errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION });
        continue;
      }
      const leader = view.assignment(ref.topic, ref.partition)?.leader ?? -1;
      if (leader < 0) {
        results.push({ ...ref, errorCode: ErrorCode.LEADER_NOT_AVAILABLE });
      } else if (!this.deps.isRemote(leader)) {
        local.push(ref);
      } else {
        const list = byLeader.get(leader) ?? [];
        list.push(ref);
        byLeader.set(leader, list);
      }
    }
    const writes: Promise<WrittenMarker[]>[] = [];
    if (local.length > 0) writes.push(this.deps.local.writeMarkers({ ...request, partitions: local }));
    for (const [leader, refs] of byLeader) writes.push(this.#writeRemote(leader, request, refs));
    for (const written of await Promise.all(writes)) results.push(...written);
    return results;
  }

  /** One WriteTxnMarkers v0 to `leader`; a failed call answers every partition with its code. */
  async #writeRemote(
    leader: number,
    request: WriteMarkersRequest,
    partitions: readonly TopicPartitionRef[],
  ): Promise<WrittenMarker[]> {
    const topics = new Map<string, number[]>();
    for (const { topic, partition } of partitions) {
      const list = topics.get(topic) ?? [];
      list.push(partition);
      topics.set(topic, list);
    }
    let answer: ResponseOf<typeof WriteTxnMarkers>;
    try {
      answer = await this.deps.peers.send(leader, WriteTxnMarkers, {
        markers: [
          {
            producerId: request.producerId,
            producerEpoch: request.producerEpoch,
            transactionResult: request.result === 'commit',
            topics: [...topics].map(([name, partitionIndexes]) => ({ name, partitionIndexes })),
            coordinatorEpoch: request.coordinatorEpoch,
          },
        ],
      });
    } catch (error) {
      const errorCode = error instanceof WeirError ? error.code : ErrorCode.NETWORK_EXCEPTION;
      return partitions.map((ref) => ({ ...ref, errorCode }));
    }
    const answered = new Map<string, number>();
    for (const marker of answer.markers) {
      for (const topic of marker.topics) {
        for (const partition of topic.partitions) {
          answered.set(
            keyOf({ topic: topic.name, partition: partition.partitionIndex }),
            partition.errorCode,
          );
        }
      }
    }
    // A partition the leader left out of its answer was not written as far as anyone can tell.
    return partitions.map((ref) => ({
      ...ref,
      errorCode: answered.get(keyOf(ref)) ?? ErrorCode.UNKNOWN_SERVER_ERROR,
    }));
  }
}

function keyOf({ topic, partition }: TopicPartitionRef): string {
  return `${topic}\u0000${partition}`;
}
