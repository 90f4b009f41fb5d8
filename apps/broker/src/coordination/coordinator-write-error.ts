import { ErrorCode, WeirError } from '@weir/protocol';

/**
 * The error a client gets when a coordinator's write to its internal topic fails, mapped as
 * Kafka's coordinators map the replica layer's append errors (GroupMetadataManager,
 * TransactionStateManager), so clients react as they do with Kafka: a partition this broker no
 * longer leads, or cannot write, means "look for the coordinator again" (NOT_COORDINATOR); one
 * that cannot take the write right now means "retry" (COORDINATOR_NOT_AVAILABLE); a write too large
 * for the log is answered with `tooLarge`, which the two coordinators choose differently. Any other
 * Kafka error passes through unchanged; a failure without one is UNKNOWN_SERVER_ERROR (the caller
 * logs its cause).
 */
export function coordinatorWriteError(
  error: unknown,
  tooLarge: { codes: readonly number[]; answer: number },
): number {
  if (!(error instanceof WeirError)) return ErrorCode.UNKNOWN_SERVER_ERROR;
  switch (error.code) {
    case ErrorCode.NOT_LEADER_OR_FOLLOWER:
    case ErrorCode.KAFKA_STORAGE_ERROR:
    case ErrorCode.FENCED_LEADER_EPOCH:
      return ErrorCode.NOT_COORDINATOR;
    case ErrorCode.UNKNOWN_TOPIC_OR_PARTITION:
    case ErrorCode.NOT_ENOUGH_REPLICAS:
    case ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND:
    case ErrorCode.REQUEST_TIMED_OUT:
      return ErrorCode.COORDINATOR_NOT_AVAILABLE;
    default:
      return tooLarge.codes.includes(error.code) ? tooLarge.answer : error.code;
  }
}
