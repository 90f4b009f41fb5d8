import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  ErrorCode,
  type ErrorCodeName,
  errorCodeInfo,
  errorCodeTable,
  isKnownErrorCode,
} from './error-codes';

// Facts checked against apache/kafka trunk (Oct 2024) `Errors.java` and the class hierarchy under
// `common/errors`: [code, name, retriable]. Covers every code in docs/kafka-compat.md §8 and a spread of
// others, including ones whose retriable flag is easy to get wrong.
const kafkaFacts: [number, ErrorCodeName, boolean][] = [
  [-1, 'UNKNOWN_SERVER_ERROR', false],
  [0, 'NONE', false],
  [1, 'OFFSET_OUT_OF_RANGE', false],
  [2, 'CORRUPT_MESSAGE', true],
  [3, 'UNKNOWN_TOPIC_OR_PARTITION', true],
  [4, 'INVALID_FETCH_SIZE', false],
  [5, 'LEADER_NOT_AVAILABLE', true],
  [6, 'NOT_LEADER_OR_FOLLOWER', true],
  [7, 'REQUEST_TIMED_OUT', true],
  [8, 'BROKER_NOT_AVAILABLE', false],
  [9, 'REPLICA_NOT_AVAILABLE', true],
  [10, 'MESSAGE_TOO_LARGE', false],
  [13, 'NETWORK_EXCEPTION', true],
  [14, 'COORDINATOR_LOAD_IN_PROGRESS', true],
  [15, 'COORDINATOR_NOT_AVAILABLE', true],
  [16, 'NOT_COORDINATOR', true],
  [17, 'INVALID_TOPIC_EXCEPTION', false],
  [19, 'NOT_ENOUGH_REPLICAS', true],
  [20, 'NOT_ENOUGH_REPLICAS_AFTER_APPEND', true],
  [21, 'INVALID_REQUIRED_ACKS', false],
  [22, 'ILLEGAL_GENERATION', false],
  [23, 'INCONSISTENT_GROUP_PROTOCOL', false],
  [24, 'INVALID_GROUP_ID', false],
  [25, 'UNKNOWN_MEMBER_ID', false],
  [26, 'INVALID_SESSION_TIMEOUT', false],
  [27, 'REBALANCE_IN_PROGRESS', false],
  [29, 'TOPIC_AUTHORIZATION_FAILED', false],
  [30, 'GROUP_AUTHORIZATION_FAILED', false],
  [31, 'CLUSTER_AUTHORIZATION_FAILED', false],
  [33, 'UNSUPPORTED_SASL_MECHANISM', false],
  [34, 'ILLEGAL_SASL_STATE', false],
  [35, 'UNSUPPORTED_VERSION', false],
  [36, 'TOPIC_ALREADY_EXISTS', false],
  [37, 'INVALID_PARTITIONS', false],
  [38, 'INVALID_REPLICATION_FACTOR', false],
  [40, 'INVALID_CONFIG', false],
  [41, 'NOT_CONTROLLER', true],
  [42, 'INVALID_REQUEST', false],
  [45, 'OUT_OF_ORDER_SEQUENCE_NUMBER', false],
  [46, 'DUPLICATE_SEQUENCE_NUMBER', false],
  [47, 'INVALID_PRODUCER_EPOCH', false],
  [48, 'INVALID_TXN_STATE', false],
  [49, 'INVALID_PRODUCER_ID_MAPPING', false],
  [50, 'INVALID_TRANSACTION_TIMEOUT', false],
  [51, 'CONCURRENT_TRANSACTIONS', true],
  [52, 'TRANSACTION_COORDINATOR_FENCED', false],
  [53, 'TRANSACTIONAL_ID_AUTHORIZATION_FAILED', false],
  [56, 'KAFKA_STORAGE_ERROR', true],
  [58, 'SASL_AUTHENTICATION_FAILED', false],
  [59, 'UNKNOWN_PRODUCER_ID', false],
  [68, 'NON_EMPTY_GROUP', false],
  [69, 'GROUP_ID_NOT_FOUND', false],
  [70, 'FETCH_SESSION_ID_NOT_FOUND', true],
  [71, 'INVALID_FETCH_SESSION_EPOCH', true],
  [74, 'FENCED_LEADER_EPOCH', true],
  [75, 'UNKNOWN_LEADER_EPOCH', true],
  [78, 'OFFSET_NOT_AVAILABLE', true],
  [79, 'MEMBER_ID_REQUIRED', false],
  [82, 'FENCED_INSTANCE_ID', false],
  [84, 'ELECTION_NOT_NEEDED', true],
  [87, 'INVALID_RECORD', false],
  [88, 'UNSTABLE_OFFSET_COMMIT', true],
  [89, 'THROTTLING_QUOTA_EXCEEDED', true],
  [90, 'PRODUCER_FENCED', false],
  [100, 'UNKNOWN_TOPIC_ID', true],
  [103, 'INCONSISTENT_TOPIC_ID', true],
  [105, 'TRANSACTIONAL_ID_NOT_FOUND', false],
  [106, 'FETCH_SESSION_TOPIC_ID_ERROR', true],
  [120, 'TRANSACTION_ABORTABLE', false],
  [128, 'INVALID_REGULAR_EXPRESSION', false],
];

// docs/kafka-compat.md §8: the codes the broker must be able to send.
const compatCodes = [
  -1, 1, 2, 3, 5, 6, 7, 10, 14, 15, 16, 17, 21, 22, 23, 24, 25, 26, 27, 29, 30, 31, 33, 34, 35, 36, 37, 38,
  41, 42, 45, 46, 47, 48, 49, 50, 51, 53, 58, 59, 69, 79, 87, 90,
];

describe('ErrorCode', () => {
  it.each(kafkaFacts)('%i is %s (retriable: %s)', (code, name, retriable) => {
    expect(ErrorCode[name]).toBe(code);
    expect(errorCodeInfo(code)).toMatchObject({ code, name, retriable });
  });

  it('has literal number types', () => {
    expectTypeOf(ErrorCode.NOT_LEADER_OR_FOLLOWER).toEqualTypeOf<6>();
    expectTypeOf(ErrorCode.NONE).toEqualTypeOf<0>();
    expectTypeOf<6>().toExtend<ErrorCode>();
    expectTypeOf<1000>().not.toExtend<ErrorCode>();
  });

  it('contains every code docs/kafka-compat.md §8 lists', () => {
    for (const code of compatCodes) expect(isKnownErrorCode(code), `code ${code}`).toBe(true);
  });

  it('covers every Kafka code from -1 to 128 with no gaps', () => {
    const codes = errorCodeTable.map((info) => info.code);
    expect(codes).toEqual(Array.from({ length: 130 }, (_, index) => index - 1));
  });

  it('has unique names and unique numbers', () => {
    const names = errorCodeTable.map((info) => info.name);
    const codes = errorCodeTable.map((info) => info.code);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(codes).size).toBe(codes.length);
    expect(Object.keys(ErrorCode)).toHaveLength(errorCodeTable.length);
  });

  it('agrees between the constant, the table and the reverse lookup', () => {
    for (const info of errorCodeTable) {
      expect(ErrorCode[info.name]).toBe(info.code);
      expect(errorCodeInfo(info.code)).toBe(info);
      expect(info.message).toMatch(/^[A-Z].*\.$/);
    }
  });

  it('knows nothing about numbers outside the table', () => {
    for (const code of [-2, 129, 1000, 32767, -32768, 0.5, Number.NaN]) {
      expect(errorCodeInfo(code)).toBeUndefined();
      expect(isKnownErrorCode(code)).toBe(false);
    }
  });

  it('is frozen', () => {
    expect(Object.isFrozen(ErrorCode)).toBe(true);
    expect(Object.isFrozen(errorCodeTable)).toBe(true);
    expect(Object.isFrozen(errorCodeTable[0])).toBe(true);
  });
});
