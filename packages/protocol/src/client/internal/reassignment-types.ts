/** One partition to move (AlterPartitionReassignments, KIP-455). */
export interface PartitionMove {
  topic: string;
  partition: number;
  /**
   * The target replicas, the first the preferred leader; null cancels the move in progress (the
   * replicas go back to the ones before it).
   */
  replicas: readonly number[] | null;
}

/** The broker's answer for one {@link PartitionMove}: 0 when the move was started or cancelled. */
export interface PartitionMoveResult {
  topic: string;
  partition: number;
  errorCode: number;
  errorMessage: string | null;
}

/** A move in progress (ListPartitionReassignments). */
export interface PartitionReassignment {
  topic: string;
  partition: number;
  /** The target followed by the replicas being removed. */
  replicas: readonly number[];
  /** Target replicas that are not in sync yet. */
  addingReplicas: readonly number[];
  /** Replicas that leave once every adding one is in sync. */
  removingReplicas: readonly number[];
}
