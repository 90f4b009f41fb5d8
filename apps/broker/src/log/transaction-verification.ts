/**
 * A token the replica layer takes for a transactional batch before it asks the transaction
 * coordinator about it, and hands back with the append.
 */
export type VerificationGuard = symbol;

/**
 * Closes the window between asking the transaction coordinator whether a producer's transaction
 * includes this partition and writing the batch (Kafka's verification guard, KIP-890): a COMMIT or
 * ABORT marker for the producer written in between would otherwise let the batch start a new,
 * hanging transaction after the one it was admitted to had ended. A guard is taken before the
 * question; every marker for the producer drops it; a batch that would open a transaction is
 * written only if its guard is still the producer's current one. Batches of a transaction already
 * open here need no guard; pipelined batches of one producer share the guard the first one took.
 * Guards live in memory only: after a restart the coordinator is asked again.
 */
export class TransactionVerifications {
  readonly #guards = new Map<number, VerificationGuard>();

  /** The producer's current guard, or a new one. */
  begin(producerId: number): VerificationGuard {
    let guard = this.#guards.get(producerId);
    if (guard === undefined) {
      guard = Symbol(`verification of producer ${producerId}`);
      this.#guards.set(producerId, guard);
    }
    return guard;
  }

  /** A marker for the producer was written: whatever was verified before it no longer holds. */
  end(producerId: number): void {
    this.#guards.delete(producerId);
  }

  /** Whether `guard` is still the producer's current one. */
  holds(producerId: number, guard: VerificationGuard): boolean {
    return this.#guards.get(producerId) === guard;
  }
}
