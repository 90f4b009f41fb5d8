import type { CompressionType } from '../records/batch-attributes';
import type { PartitionQueue } from './partition-queue';
import { incrementSequence, type ProducerBatch, type ProducerIdentity } from './producer-batch';
import type { ProducerIdentitySource } from './producer-identity';
import type { ProducerTransactionGate } from './transaction/transaction-gate';

/** Where a producer's batches get their identity, and how they are encoded. */
export interface BatchSequencing {
  readonly compression: CompressionType;
  readonly idempotent: boolean;
  /** The idempotent producer's own identity; unused when there is a gate. */
  readonly identities: ProducerIdentitySource;
  /** Set for a transactional producer: its batches carry the transaction's identity. */
  readonly gate: ProducerTransactionGate | undefined;
}

/**
 * Gives a batch its identity and sequence numbers and encodes it, unless it already is. Returns
 * false while an idempotent producer waits for a producer id.
 */
export function prepareBatch(
  queue: PartitionQueue,
  batch: ProducerBatch,
  sequencing: BatchSequencing,
): boolean {
  if (batch.encoded) return true;
  const gate = sequencing.gate;
  let identity: ProducerIdentity | undefined;
  if (gate !== undefined) {
    if (!adoptTransactionIdentity(queue, gate)) return false;
    identity = queue.identity;
  } else if (sequencing.idempotent) {
    if (queue.identity === undefined) {
      const current = sequencing.identities.current;
      if (current === undefined || queue.retiredProducerIds.has(current.producerId)) {
        sequencing.identities.renew(current);
        return false;
      }
      queue.identity = current;
      queue.nextSequence = 0;
    }
    identity = queue.identity;
  }
  const baseSequence = queue.nextSequence;
  batch.encode(sequencing.compression, identity, baseSequence, gate !== undefined);
  if (identity !== undefined) queue.nextSequence = incrementSequence(baseSequence, batch.recordCount);
  return true;
}

/**
 * A transactional producer's batches carry the transaction's identity. Sequences go on across
 * transactions of one epoch and start again at 0 under a new epoch. After a failed batch the gate
 * has no identity until the abort that must follow has bumped the epoch, so nothing is sent with
 * a sequence gap.
 */
function adoptTransactionIdentity(queue: PartitionQueue, gate: ProducerTransactionGate): boolean {
  const current = gate.identity();
  if (current === undefined) return false;
  const held = queue.identity;
  if (held?.producerId === current.producerId && held.producerEpoch === current.producerEpoch) return true;
  queue.identity = current;
  queue.nextSequence = 0;
  return true;
}
