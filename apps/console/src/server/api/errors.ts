import { type TRPC_ERROR_CODE_KEY, TRPCError } from '@trpc/server';
import { ErrorCode, type ErrorCodeName, errorCodeInfo } from '@weir/protocol';
import { asKafkaError, isConsoleConfigError } from './error-shapes';

export type TrpcErrorCode = TRPC_ERROR_CODE_KEY;

/*
 * The one place Kafka error codes become tRPC (and so HTTP) error codes. Decisions are made on the
 * numeric code only; messages are for people. Codes listed here win over the retriable flag:
 * UNKNOWN_TOPIC_OR_PARTITION is retriable in Kafka (metadata may catch up) but to an operator it
 * means "not found". OFFSET_OUT_OF_RANGE means the offset a request named lies outside what the
 * partition holds (DeleteRecords past the high watermark): a value of the caller's that is out of
 * range, which this API answers with 400 like every other (INVALID_PARTITIONS, INVALID_CONFIG, a
 * number outside its bounds). A record missing at a permalink's offset is a missing resource, and
 * its service says so with RESOURCE_NOT_FOUND (404).
 */
const CODE_TO_TRPC: ReadonlyMap<number, TrpcErrorCode> = new Map<number, TrpcErrorCode>([
  [ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, 'NOT_FOUND'],
  [ErrorCode.UNKNOWN_TOPIC_ID, 'NOT_FOUND'],
  [ErrorCode.GROUP_ID_NOT_FOUND, 'NOT_FOUND'],
  [ErrorCode.RESOURCE_NOT_FOUND, 'NOT_FOUND'],
  [ErrorCode.TRANSACTIONAL_ID_NOT_FOUND, 'NOT_FOUND'],
  [ErrorCode.TOPIC_ALREADY_EXISTS, 'CONFLICT'],
  [ErrorCode.DUPLICATE_RESOURCE, 'CONFLICT'],
  [ErrorCode.TOPIC_AUTHORIZATION_FAILED, 'FORBIDDEN'],
  [ErrorCode.GROUP_AUTHORIZATION_FAILED, 'FORBIDDEN'],
  [ErrorCode.CLUSTER_AUTHORIZATION_FAILED, 'FORBIDDEN'],
  [ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, 'FORBIDDEN'],
  [ErrorCode.SASL_AUTHENTICATION_FAILED, 'UNAUTHORIZED'],
  [ErrorCode.NON_EMPTY_GROUP, 'PRECONDITION_FAILED'],
  [ErrorCode.REBALANCE_IN_PROGRESS, 'PRECONDITION_FAILED'],
  [ErrorCode.INVALID_TXN_STATE, 'PRECONDITION_FAILED'],
  [ErrorCode.PRODUCER_FENCED, 'CONFLICT'],
  [ErrorCode.INVALID_PRODUCER_EPOCH, 'CONFLICT'],
  [ErrorCode.INVALID_TRANSACTION_TIMEOUT, 'BAD_REQUEST'],
  [ErrorCode.TOPIC_DELETION_DISABLED, 'PRECONDITION_FAILED'],
  [ErrorCode.GROUP_SUBSCRIBED_TO_TOPIC, 'PRECONDITION_FAILED'],
  [ErrorCode.INVALID_CONFIG, 'BAD_REQUEST'],
  [ErrorCode.INVALID_PARTITIONS, 'BAD_REQUEST'],
  [ErrorCode.INVALID_REPLICATION_FACTOR, 'BAD_REQUEST'],
  [ErrorCode.INVALID_REPLICA_ASSIGNMENT, 'BAD_REQUEST'],
  [ErrorCode.INVALID_REQUEST, 'BAD_REQUEST'],
  [ErrorCode.INVALID_TOPIC_EXCEPTION, 'BAD_REQUEST'],
  [ErrorCode.INVALID_GROUP_ID, 'BAD_REQUEST'],
  [ErrorCode.INVALID_TIMESTAMP, 'BAD_REQUEST'],
  [ErrorCode.OFFSET_OUT_OF_RANGE, 'BAD_REQUEST'],
  [ErrorCode.INVALID_RECORD, 'BAD_REQUEST'],
  [ErrorCode.POLICY_VIOLATION, 'BAD_REQUEST'],
  [ErrorCode.UNSUPPORTED_COMPRESSION_TYPE, 'BAD_REQUEST'],
  [ErrorCode.MESSAGE_TOO_LARGE, 'PAYLOAD_TOO_LARGE'],
  [ErrorCode.RECORD_LIST_TOO_LARGE, 'PAYLOAD_TOO_LARGE'],
  [ErrorCode.UNSUPPORTED_VERSION, 'NOT_IMPLEMENTED'],
  [ErrorCode.BROKER_NOT_AVAILABLE, 'SERVICE_UNAVAILABLE'],
]);

/** The tRPC code for a Kafka error code. */
export function trpcCodeForBrokerCode(code: number): TrpcErrorCode {
  const mapped = CODE_TO_TRPC.get(code);
  if (mapped !== undefined) return mapped;
  if (errorCodeInfo(code)?.retriable) return 'SERVICE_UNAVAILABLE';
  return 'INTERNAL_SERVER_ERROR';
}

/** What the gateway adds to a tRPC error for clients: the Kafka code, so UIs branch on codes. */
export interface BrokerErrorData {
  readonly brokerCode: number;
  readonly brokerError: ErrorCodeName;
}

/** The Kafka error behind a tRPC error, if any. */
export function brokerErrorData(error: TRPCError): BrokerErrorData | null {
  const cause = asKafkaError(error.cause);
  if (cause === null) return null;
  return { brokerCode: cause.originalCode, brokerError: cause.name };
}

/**
 * Turns anything a procedure threw into a TRPCError: WeirErrors by their code, configuration
 * problems as SERVICE_UNAVAILABLE (the broker cannot be reached until fixed), RangeErrors from the
 * SDK's own argument checks as BAD_REQUEST. Anything else is left for tRPC (500).
 */
export function toTrpcError(error: unknown): unknown {
  if (error instanceof TRPCError) return error;
  const kafka = asKafkaError(error);
  if (kafka !== null) {
    return new TRPCError({
      code: trpcCodeForBrokerCode(kafka.originalCode),
      message: singleItemMessage(kafka) ?? kafka.message,
      cause: kafka,
    });
  }
  if (isConsoleConfigError(error)) {
    return new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: error.message, cause: error });
  }
  if (error instanceof RangeError) {
    return new TRPCError({ code: 'BAD_REQUEST', message: error.message, cause: error });
  }
  return error;
}

/**
 * The broker's own message when an admin operation on one item failed (an AdminItemsError, by
 * shape): it names what was wrong ("replication factor 4 is larger than the 3 live brokers"),
 * where the operation's summary only lists the item and its code.
 */
function singleItemMessage(error: Error): string | undefined {
  const failures = (error as Error & { failures?: unknown }).failures;
  if (!Array.isArray(failures) || failures.length !== 1) return undefined;
  const only = (failures[0] as { error?: unknown }).error;
  return only instanceof Error ? only.message : undefined;
}
