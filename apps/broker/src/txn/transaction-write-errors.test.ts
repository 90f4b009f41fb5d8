import { ErrorCode, WeirError } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import { ManualScheduler, settle, unledGroupCoordinator } from '../../test/group-fixtures';
import { MemoryTransactionStore, unledTransactionCoordinator } from '../../test/txn-memory-fixtures';
import { transactionWriteError } from './transaction-table';

/**
 * The replica layer's append errors and what a transactional client gets for them, as Kafka's
 * transaction coordinator maps them.
 */
const MAPPING: readonly [keyof typeof ErrorCode, keyof typeof ErrorCode][] = [
  ['NOT_LEADER_OR_FOLLOWER', 'NOT_COORDINATOR'],
  ['KAFKA_STORAGE_ERROR', 'NOT_COORDINATOR'],
  ['FENCED_LEADER_EPOCH', 'NOT_COORDINATOR'],
  ['UNKNOWN_TOPIC_OR_PARTITION', 'COORDINATOR_NOT_AVAILABLE'],
  ['NOT_ENOUGH_REPLICAS', 'COORDINATOR_NOT_AVAILABLE'],
  ['NOT_ENOUGH_REPLICAS_AFTER_APPEND', 'COORDINATOR_NOT_AVAILABLE'],
  ['REQUEST_TIMED_OUT', 'COORDINATOR_NOT_AVAILABLE'],
  ['MESSAGE_TOO_LARGE', 'UNKNOWN_SERVER_ERROR'],
  ['RECORD_LIST_TOO_LARGE', 'UNKNOWN_SERVER_ERROR'],
  // Anything else passes through.
  ['INVALID_REQUEST', 'INVALID_REQUEST'],
];

describe('transaction coordinator write errors', () => {
  it.each(MAPPING)('an append failing with %s answers %s', async (appendError, clientError) => {
    expect(transactionWriteError(new WeirError(ErrorCode[appendError]))).toBe(ErrorCode[clientError]);

    const scheduler = new ManualScheduler();
    const store = new MemoryTransactionStore(1);
    const txn = unledTransactionCoordinator({
      scheduler,
      groups: unledGroupCoordinator({ scheduler }).coordinator,
      store,
    });
    const loaded = txn.coordinator.onBecomeLeader(0, 0);
    await settle();
    txn.source.release(0);
    await loaded;
    store.failWith = new WeirError(ErrorCode[appendError]);
    expect((await txn.coordinator.initProducerId('tx', 60_000)).errorCode).toBe(ErrorCode[clientError]);
    // Nothing was installed: the id is still unknown.
    expect(txn.coordinator.describe('tx').errorCode).toBe(ErrorCode.TRANSACTIONAL_ID_NOT_FOUND);
  });

  it('answers UNKNOWN_SERVER_ERROR for a failure that carries no Kafka error code', () => {
    expect(transactionWriteError(new Error('a bug'))).toBe(ErrorCode.UNKNOWN_SERVER_ERROR);
  });
});
