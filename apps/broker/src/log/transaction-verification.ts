/**
 * A token the replica layer takes for a transactional batch before it asks the transaction
 * coordinator about it, and hands back with the append.
 */
export type VerificationGuard = symbol;

/** What the coordinator admitted a batch under: its producer epoch, at this partition's leader epoch. */
export interface Admission {
  producerEpoch: number;
  leaderEpoch: number;
}

/**
 * Closes the window between asking the transaction coordinator whether a producer's transaction
 * includes this partition and writing the batch (Kafka's verification guard, KIP-890): a COMMIT or
 * ABORT marker for the producer written in between would otherwise let the batch start a new,
 * hanging transaction after the one it was admitted to had ended. A guard is taken before the
 * question; every marker for the producer drops it; a batch that would open a transaction is
 * written only if its guard is still the producer's current one. Batches of a transaction already
 * open here need no guard; pipelined batches of one producer share the guard the first one took.
 *
 * Once the coordinator has admitted a batch under a guard, the guard remembers the producer epoch
 * and the leader epoch it was admitted at: until a marker drops it, later batches of that producer
 * epoch belong to the same transaction here and are not asked about again while the same leadership
 * lasts (Kafka concludes the same from a transaction already open in the partition; this knows it
 * before the first batch is written). Another leadership is asked again, as a marker may have come
 * in while another broker led. Guards live in memory only: after a restart the coordinator is
 * asked again.
 */
export class TransactionVerifications {
  /** Created with the first guard: most partitions never see a transactional producer. */
  #current: Map<number, { guard: VerificationGuard; admitted: Admission | undefined }> | undefined;

  /** The producer's current guard, or a new one. */
  begin(producerId: number): VerificationGuard {
    let current = this.#current?.get(producerId);
    if (current === undefined) {
      current = { guard: Symbol(`verification of producer ${producerId}`), admitted: undefined };
      this.#current ??= new Map();
      this.#current.set(producerId, current);
    }
    return current.guard;
  }

  /** The coordinator admitted a batch under `guard`; ignored if a marker dropped the guard since. */
  admitted(producerId: number, guard: VerificationGuard, admission: Admission): void {
    const current = this.#current?.get(producerId);
    if (current?.guard === guard) current.admitted = admission;
  }

  /** The current guard when the coordinator has admitted a batch of the same epochs under it. */
  admittedGuard(producerId: number, admission: Admission): VerificationGuard | undefined {
    const admitted = this.#current?.get(producerId)?.admitted;
    return admitted?.producerEpoch === admission.producerEpoch &&
      admitted.leaderEpoch === admission.leaderEpoch
      ? this.#current?.get(producerId)?.guard
      : undefined;
  }

  /** A marker for the producer was written: whatever was verified before it no longer holds. */
  end(producerId: number): void {
    this.#current?.delete(producerId);
  }

  /** Whether `guard` is still the producer's current one. */
  holds(producerId: number, guard: VerificationGuard): boolean {
    return this.#current?.get(producerId)?.guard === guard;
  }
}
