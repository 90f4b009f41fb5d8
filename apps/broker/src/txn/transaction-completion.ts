import { ErrorCode } from '@weir/protocol';
import type { TransactionMarkerWriter, TransactionResult } from './transaction-contracts';
import { type StagedOffset, stagedOffsetsByGroup, type TransactionMetadata } from './transaction-metadata';

/** The producer whose committed transaction carries the offsets. */
export interface OffsetCommitter {
  producerId: bigint;
  producerEpoch: number;
}

/**
 * Implemented over the group coordinator: stores a committed transaction's staged offsets as the
 * group's committed offsets. Resolves to an error code (NONE once they are durable).
 */
export interface TransactionOffsetsSink {
  applyTransactionalOffsets(
    groupId: string,
    committer: OffsetCommitter,
    offsets: readonly StagedOffset[],
  ): Promise<number>;
}

/** Step two of EndTxn, after the decision is durable: what still has to happen. */
export type CompletionOutcome =
  | { ok: true }
  /** Something could not be written; the whole step is retried (markers may be written twice). */
  | { ok: false; step: 'markers' | 'offsets'; detail: string };

/**
 * Kafka does not write a marker to a partition whose topic was deleted meanwhile; nothing there
 * can be read any more, so the transaction may complete without it.
 */
const MARKER_OUTCOMES_THAT_COMPLETE: ReadonlySet<number> = new Set([
  ErrorCode.NONE,
  ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
]);

export function resultOfPrepared(metadata: TransactionMetadata): TransactionResult {
  if (metadata.state === 'PrepareCommit') return 'commit';
  if (metadata.state === 'PrepareAbort') return 'abort';
  throw new Error(`transaction "${metadata.transactionalId}" is ${metadata.state}, not prepared`);
}

/**
 * Writes a COMMIT or ABORT marker to every partition of a prepared transaction and, for a commit,
 * applies its staged offsets; an abort drops them. Safe to run again after a failure or a crash:
 * markers are accepted twice by the partitions and offsets are plain overwrites.
 */
export async function completePrepared(
  prepared: TransactionMetadata,
  deps: {
    markers: TransactionMarkerWriter;
    offsets: TransactionOffsetsSink;
    /** The leader epoch of the shard that completes the transaction, written into every marker. */
    coordinatorEpoch: number;
  },
): Promise<CompletionOutcome> {
  const result = resultOfPrepared(prepared);
  const partitions = [...prepared.partitions.values()];
  if (partitions.length > 0) {
    const written = await deps.markers.writeMarkers({
      producerId: prepared.producerId,
      producerEpoch: prepared.producerEpoch,
      result,
      coordinatorEpoch: deps.coordinatorEpoch,
      partitions,
    });
    const failed = written.filter((marker) => !MARKER_OUTCOMES_THAT_COMPLETE.has(marker.errorCode));
    if (failed.length > 0) {
      const detail = failed
        .map((marker) => `${marker.topic}-${marker.partition}: error ${marker.errorCode}`)
        .join(', ');
      return { ok: false, step: 'markers', detail };
    }
  }
  if (result === 'commit') {
    const committer = { producerId: prepared.producerId, producerEpoch: prepared.producerEpoch };
    for (const { groupId, offsets } of stagedOffsetsByGroup(prepared)) {
      const errorCode = await deps.offsets.applyTransactionalOffsets(groupId, committer, offsets);
      if (errorCode !== ErrorCode.NONE) {
        return { ok: false, step: 'offsets', detail: `group ${groupId}: error ${errorCode}` };
      }
    }
  }
  return { ok: true };
}
