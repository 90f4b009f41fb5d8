import { ErrorCode, WeirError } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import { commitOne, loadedCoordinator } from '../../test/group-fixtures';
import { groupWriteError } from './coordinator-context';

/** The replica layer's append errors and what a group client gets for them, as Kafka maps them. */
const MAPPING: readonly [keyof typeof ErrorCode, keyof typeof ErrorCode][] = [
  ['NOT_LEADER_OR_FOLLOWER', 'NOT_COORDINATOR'],
  ['KAFKA_STORAGE_ERROR', 'NOT_COORDINATOR'],
  ['FENCED_LEADER_EPOCH', 'NOT_COORDINATOR'],
  ['UNKNOWN_TOPIC_OR_PARTITION', 'COORDINATOR_NOT_AVAILABLE'],
  ['NOT_ENOUGH_REPLICAS', 'COORDINATOR_NOT_AVAILABLE'],
  ['NOT_ENOUGH_REPLICAS_AFTER_APPEND', 'COORDINATOR_NOT_AVAILABLE'],
  ['REQUEST_TIMED_OUT', 'COORDINATOR_NOT_AVAILABLE'],
  ['MESSAGE_TOO_LARGE', 'INVALID_COMMIT_OFFSET_SIZE'],
  ['RECORD_LIST_TOO_LARGE', 'INVALID_COMMIT_OFFSET_SIZE'],
  ['INVALID_FETCH_SIZE', 'INVALID_COMMIT_OFFSET_SIZE'],
  // Anything else passes through.
  ['INVALID_REQUEST', 'INVALID_REQUEST'],
];

describe('group coordinator write errors', () => {
  it.each(MAPPING)('an append failing with %s answers %s', async (appendError, clientError) => {
    expect(groupWriteError(new WeirError(ErrorCode[appendError]))).toBe(ErrorCode[clientError]);

    const fx = await loadedCoordinator();
    fx.store.failWith = new WeirError(ErrorCode[appendError]);
    const result = await commitOne(fx.coordinator, 'g', 5);
    expect(result[0]!.partitions[0]!.errorCode).toBe(ErrorCode[clientError]);
    // Nothing was applied.
    expect(
      fx.coordinator.fetchOffsets('g', [{ name: 't0', partitionIndexes: [0] }]).topics[0]!.partitions[0]!
        .committedOffset,
    ).toBe(-1);
  });

  it('answers UNKNOWN_SERVER_ERROR for a failure that carries no Kafka error code', () => {
    expect(groupWriteError(new Error('a bug'))).toBe(ErrorCode.UNKNOWN_SERVER_ERROR);
  });
});
