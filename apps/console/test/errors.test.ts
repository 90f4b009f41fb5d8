import { TRPCError } from '@trpc/server';
import { ErrorCode, errorCodeTable, WeirError } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import { ConsoleConfigError } from '../src/env';
import { brokerErrorData, toTrpcError, trpcCodeForBrokerCode } from '../src/server/api/errors';

describe('Kafka error code → tRPC code', () => {
  it.each([
    [ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, 'NOT_FOUND'],
    [ErrorCode.GROUP_ID_NOT_FOUND, 'NOT_FOUND'],
    [ErrorCode.TOPIC_ALREADY_EXISTS, 'CONFLICT'],
    [ErrorCode.TOPIC_AUTHORIZATION_FAILED, 'FORBIDDEN'],
    [ErrorCode.GROUP_AUTHORIZATION_FAILED, 'FORBIDDEN'],
    [ErrorCode.CLUSTER_AUTHORIZATION_FAILED, 'FORBIDDEN'],
    [ErrorCode.NON_EMPTY_GROUP, 'PRECONDITION_FAILED'],
    [ErrorCode.INVALID_CONFIG, 'BAD_REQUEST'],
    [ErrorCode.INVALID_PARTITIONS, 'BAD_REQUEST'],
    [ErrorCode.INVALID_REQUEST, 'BAD_REQUEST'],
    [ErrorCode.OFFSET_OUT_OF_RANGE, 'BAD_REQUEST'],
    [ErrorCode.RESOURCE_NOT_FOUND, 'NOT_FOUND'],
    [ErrorCode.NOT_LEADER_OR_FOLLOWER, 'SERVICE_UNAVAILABLE'],
    [ErrorCode.NETWORK_EXCEPTION, 'SERVICE_UNAVAILABLE'],
    [ErrorCode.COORDINATOR_LOAD_IN_PROGRESS, 'SERVICE_UNAVAILABLE'],
    [ErrorCode.UNKNOWN_SERVER_ERROR, 'INTERNAL_SERVER_ERROR'],
  ] as const)('code %i → %s', (code, expected) => {
    expect(trpcCodeForBrokerCode(code)).toBe(expected);
  });

  it('sends every retriable code without its own mapping to SERVICE_UNAVAILABLE', () => {
    const specific = new Set<number>([ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, ErrorCode.UNKNOWN_TOPIC_ID]);
    for (const info of errorCodeTable.filter((entry) => entry.retriable && !specific.has(entry.code))) {
      expect(trpcCodeForBrokerCode(info.code), info.name).toBe('SERVICE_UNAVAILABLE');
    }
  });

  it('keeps the Kafka code and name for the error shape', () => {
    const mapped = toTrpcError(new WeirError(ErrorCode.NON_EMPTY_GROUP, { detail: 'g' }));
    expect(mapped).toBeInstanceOf(TRPCError);
    expect((mapped as TRPCError).code).toBe('PRECONDITION_FAILED');
    expect(brokerErrorData(mapped as TRPCError)).toEqual({ brokerCode: 68, brokerError: 'NON_EMPTY_GROUP' });
  });

  it('reports a configuration problem as SERVICE_UNAVAILABLE with the variable in the message', () => {
    const mapped = toTrpcError(
      new ConsoleConfigError('WEIR_CONSOLE_INTERNAL_TOKEN', 'WEIR_CONSOLE_INTERNAL_TOKEN is not set'),
    );
    expect((mapped as TRPCError).code).toBe('SERVICE_UNAVAILABLE');
    expect((mapped as TRPCError).message).toContain('WEIR_CONSOLE_INTERNAL_TOKEN');
    expect(brokerErrorData(mapped as TRPCError)).toBeNull();
  });

  it('recognises errors from another bundle’s copy of the classes by their fields', () => {
    // Next.js bundles pages and route handlers apart while the broker clients are shared through
    // globalThis, so the SDK's errors may be instances of a class this module has never seen.
    class ForeignWeirError extends Error {
      override readonly name = 'TOPIC_ALREADY_EXISTS';
      readonly code = 36;
      readonly originalCode = 36;
      readonly retriable = false;
    }
    const mapped = toTrpcError(new ForeignWeirError('A topic with that name already exists.'));
    expect((mapped as TRPCError).code).toBe('CONFLICT');
    expect(brokerErrorData(mapped as TRPCError)).toEqual({
      brokerCode: 36,
      brokerError: 'TOPIC_ALREADY_EXISTS',
    });

    class ForeignConfigError extends Error {
      override readonly name = 'ConsoleConfigError';
    }
    expect((toTrpcError(new ForeignConfigError('no token')) as TRPCError).code).toBe('SERVICE_UNAVAILABLE');
  });
});
