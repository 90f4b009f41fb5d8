/*
 * The seam between the transaction coordinator (apps/broker/src/txn/) and the partitions (the
 * replica layer, apps/broker/src/replica/). The coordinator decides; the partitions' leaders write
 * markers and keep the last stable offset, and ask the coordinator before they append a
 * transactional batch. Both sides are built against these types.
 */

/** A partition named by topic and number. */
export interface TopicPartitionRef {
  readonly topic: string;
  readonly partition: number;
}

/** How a transaction ended, as the control record says it. */
export type TransactionResult = 'commit' | 'abort';

export interface WriteMarkersRequest {
  readonly producerId: bigint;
  readonly producerEpoch: number;
  readonly result: TransactionResult;
  /** Stored in the marker's value: Kafka's coordinator epoch, the leader epoch of the shard that writes it. */
  readonly coordinatorEpoch: number;
  readonly partitions: readonly TopicPartitionRef[];
}

/** One partition's outcome; errorCode is 0 on success. */
export interface WrittenMarker extends TopicPartitionRef {
  readonly errorCode: number;
}

/**
 * Implemented by the partition side. Appends a COMMIT or ABORT control batch for the producer to
 * every listed partition and waits until each is durable (fdatasync) before resolving, so the
 * coordinator may then record the transaction complete. A partition without an open transaction
 * for this producer still gets the marker (Kafka writes it; a retry after a crash must be safe).
 * Aborted ranges go to the segment's `.txnindex`, and the last stable offset moves.
 */
export interface TransactionMarkerWriter {
  writeMarkers(request: WriteMarkersRequest): Promise<WrittenMarker[]>;
}

/** What the produce path asks before appending a transactional batch. */
export interface TransactionMembershipQuery {
  /** The produce request's transactional id; null when the caller does not have it (then the producer id decides). */
  transactionalId: string | null;
  producerId: bigint;
  producerEpoch: number;
  topic: string;
  partition: number;
}

/** The answer to a {@link TransactionMembershipQuery}. */
export type TransactionMembership =
  /** The partition was added to the producer's ongoing transaction: append. */
  | 'member'
  /** No ongoing transaction holds the partition: answer INVALID_TXN_STATE. */
  | 'not-member'
  /** A newer epoch owns the transactional id: answer INVALID_PRODUCER_EPOCH. */
  | 'fenced'
  /** The shard that owns the id is loading, failed, or not led here: the producer should retry. */
  | 'unavailable';

/**
 * Implemented by the coordinator side. The produce path asks it for every transactional batch
 * (attributes bit 4) before the append. Asynchronous, because in cluster mode the coordinator of
 * the id may be another broker.
 */
export interface TransactionMembershipCheck {
  membership(query: TransactionMembershipQuery): Promise<TransactionMembership>;
}
