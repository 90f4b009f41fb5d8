import type { ProducerIdentity } from '../producer-batch';

/** What a transactional producer's batching half may ask of its transaction half. */
export interface ProducerControls {
  /** Runs the send loop again (a partition was admitted, an identity arrived). */
  wake(): void;
  /** Fails every batch not sent yet: their transaction cannot commit any more. */
  failUnsent(error: unknown): void;
}

/**
 * The seam between {@link Producer} and the transaction that owns it. The producer asks the gate
 * for the identity its batches carry and for leave to send to a partition (which must be added to
 * the ongoing transaction first), and reports batches that failed for good.
 */
export interface ProducerTransactionGate {
  readonly transactionalId: string;
  /** Called once by the producer it is given to. */
  bind(controls: ProducerControls): void;
  /** The producer id and epoch of the current transaction; undefined while there is none. */
  identity(): ProducerIdentity | undefined;
  /**
   * Whether batches for the partition may be sent now. When not, the gate starts adding the
   * partition to the transaction and wakes the producer once it may.
   */
  admit(topic: string, partition: number): boolean;
  /** A batch of the transaction could not be stored: the transaction can only abort now. */
  onBatchFailed(error: unknown): void;
}
