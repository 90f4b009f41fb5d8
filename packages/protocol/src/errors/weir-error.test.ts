import { describe, expect, it } from 'vitest';
import { ErrorCode } from './error-codes';
import { errorForCode, isRetriable, WeirError } from './weir-error';

describe('WeirError', () => {
  it('carries the code, its name and the retriable flag', () => {
    const error = errorForCode(ErrorCode.NOT_LEADER_OR_FOLLOWER, 'orders-3 is led by broker 2');
    expect(error).toBeInstanceOf(WeirError);
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe(6);
    expect(error.originalCode).toBe(6);
    expect(error.name).toBe('NOT_LEADER_OR_FOLLOWER');
    expect(error.retriable).toBe(true);
    expect(error.detail).toBe('orders-3 is led by broker 2');
    expect(error.message).toContain('orders-3 is led by broker 2');
    expect(String(error)).toMatch(/^NOT_LEADER_OR_FOLLOWER: /);
  });

  it('uses the table message when no detail is given', () => {
    const error = errorForCode(ErrorCode.INVALID_PRODUCER_EPOCH);
    expect(error.detail).toBeUndefined();
    expect(error.message.length).toBeGreaterThan(0);
    expect(error.retriable).toBe(false);
  });

  it('maps an unknown number to UNKNOWN_SERVER_ERROR and keeps the number visible', () => {
    const error = errorForCode(12345, 'from broker 7');
    expect(error.code).toBe(ErrorCode.UNKNOWN_SERVER_ERROR);
    expect(error.name).toBe('UNKNOWN_SERVER_ERROR');
    expect(error.originalCode).toBe(12345);
    expect(error.retriable).toBe(false);
    expect(error.message).toContain('12345');
    expect(error.message).toContain('from broker 7');
  });

  it('keeps the cause', () => {
    const cause = new Error('EIO');
    const error = new WeirError(ErrorCode.KAFKA_STORAGE_ERROR, { detail: 'segment 0', cause });
    expect(error.cause).toBe(cause);
    expect(error.retriable).toBe(true);
    expect(new WeirError(ErrorCode.KAFKA_STORAGE_ERROR)).not.toHaveProperty('cause');
  });
});

describe('isRetriable', () => {
  it.each([
    [ErrorCode.NOT_LEADER_OR_FOLLOWER, true],
    [ErrorCode.COORDINATOR_LOAD_IN_PROGRESS, true],
    [ErrorCode.NOT_COORDINATOR, true],
    [ErrorCode.CONCURRENT_TRANSACTIONS, true],
    [ErrorCode.INVALID_PRODUCER_EPOCH, false],
    [ErrorCode.PRODUCER_FENCED, false],
    [ErrorCode.REBALANCE_IN_PROGRESS, false],
    [ErrorCode.NONE, false],
    [ErrorCode.UNKNOWN_SERVER_ERROR, false],
    [9999, false],
  ])('code %i → %s, as a number and as an error', (code, retriable) => {
    expect(isRetriable(code)).toBe(retriable);
    expect(isRetriable(errorForCode(code))).toBe(retriable);
  });
});
