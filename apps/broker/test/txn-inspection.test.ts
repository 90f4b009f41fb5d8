import { ErrorCode } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import { weirFailure } from './internal-fixtures';
import { txnBrokerPerSuite } from './txn-fixtures';

/** DescribeProducers, the operator's abort over the internal listener, and the metrics. */
describe('transaction inspection and operator abort', () => {
  const txn = txnBrokerPerSuite(
    {
      topics: { autoCreateEnable: false },
      groups: { offsetsTopicPartitions: 2 },
      transactions: { stateTopicPartitions: 2 },
    },
    { name: 'inspect', partitionCount: 2 },
  );

  it('shows the producers of a partition with their open transaction, and aborts a hanging one', async () => {
    const claim = await txn.wire.claim('tx-hanging');
    expect(await txn.wire.addPartitions(claim, 'inspect', [0])).toEqual([0]);
    expect(await txn.wire.produce(claim, 'inspect', 0, ['a', 'b'], 0)).toBe(0);

    const [partition0, missing] = await txn.inspector.producers('inspect', [0, 5]);
    expect(missing).toMatchObject({ partitionIndex: 5, errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION });
    expect(partition0).toMatchObject({ partitionIndex: 0, errorCode: 0 });
    expect(partition0!.activeProducers).toEqual([
      expect.objectContaining({
        producerId: claim.producerId,
        producerEpoch: claim.producerEpoch,
        lastSequence: 1,
        currentTxnStartOffset: 0n,
      }),
    ]);

    const admin = txn.inspector.internal;
    expect((await weirFailure(admin.abortTransaction('tx-hanging', ' '))).code).toBe(
      ErrorCode.INVALID_REQUEST,
    );
    expect((await weirFailure(admin.abortTransaction('nobody', 'stuck'))).code).toBe(
      ErrorCode.TRANSACTIONAL_ID_NOT_FOUND,
    );
    await admin.abortTransaction('tx-hanging', 'producer host died; LSO stuck');
    // Nothing is open any more, so the abort is refused the second time.
    expect((await weirFailure(admin.abortTransaction('tx-hanging', 'again'))).code).toBe(
      ErrorCode.INVALID_TXN_STATE,
    );
    expect(await txn.wire.latest('inspect', 0, true)).toBe(3);
    const described = await txn.inspector.describe('tx-hanging');
    expect(described).toMatchObject({
      transactionState: 'CompleteAbort',
      producerEpoch: claim.producerEpoch + 1,
    });
    // The producer that left it open is fenced.
    expect(await txn.wire.produce(claim, 'inspect', 0, ['late'], 2)).toBe(ErrorCode.INVALID_PRODUCER_EPOCH);
    expect(await txn.wire.end(claim, true)).toBe(ErrorCode.INVALID_PRODUCER_EPOCH);
  });

  it('counts commits, aborts and open transactions in the metrics', async () => {
    const claim = await txn.wire.claim('tx-metrics');
    expect(await txn.wire.addPartitions(claim, 'inspect', [1])).toEqual([0]);
    const open = await txn.running.metrics.registry.metrics();
    expect(open).toContain('weir_transactions_open 1');
    expect(await txn.wire.end(claim, true)).toBe(0);
    const after = await txn.running.metrics.registry.metrics();
    expect(after).toContain('weir_transactions_open 0');
    expect(after).toMatch(/weir_transactions_total\{result="commit"\} [1-9]/);
    expect(after).toMatch(/weir_transactions_total\{result="abort"\} [1-9]/);
    expect(after).toMatch(/weir_transaction_duration_seconds_count [2-9]/);
  });
});
