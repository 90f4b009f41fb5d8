import { ErrorCode, OffsetFetch } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import { txnBrokerPerSuite } from './txn-fixtures';

/** The transaction coordinator on the wire, with hand-built requests at the clients' versions. */
describe('transaction coordinator', () => {
  const txn = txnBrokerPerSuite(
    {
      topics: { autoCreateEnable: false },
      groups: { offsetsTopicPartitions: 2 },
      transactions: { stateTopicPartitions: 3, maxTimeoutMs: 120_000 },
    },
    { name: 'txn', partitionCount: 8 },
  );

  it('keeps one producer id per transactional id and bumps the epoch on every InitProducerId', async () => {
    const first = await txn.wire.claim('tx-epochs');
    const second = await txn.wire.claim('tx-epochs');
    expect(second.producerId).toBe(first.producerId);
    expect(second.producerEpoch).toBe(first.producerEpoch + 1);
    // The old producer is fenced, as INVALID_PRODUCER_EPOCH (PRODUCER_FENCED is never sent here).
    expect(await txn.wire.addPartitions(first, 'txn', [0])).toEqual([ErrorCode.INVALID_PRODUCER_EPOCH]);
    expect(await txn.wire.end(first, true)).toBe(ErrorCode.INVALID_PRODUCER_EPOCH);
    expect(
      await txn.wire.addPartitions({ ...second, producerId: second.producerId + 1n }, 'txn', [0]),
    ).toEqual([ErrorCode.INVALID_PRODUCER_ID_MAPPING]);
    expect(await txn.wire.addPartitions(second, 'txn', [0])).toEqual([0]);
    // The fenced producer cannot write either: the produce path asks the coordinator.
    expect(await txn.wire.produce(first, 'txn', 0, ['zombie'], 0)).toBe(ErrorCode.INVALID_PRODUCER_EPOCH);
    expect(await txn.wire.end(second, false)).toBe(0);
  });

  it('refuses a timeout above transactions.maxTimeoutMs, or none at all', async () => {
    expect((await txn.wire.init('tx-timeout', 120_001)).errorCode).toBe(
      ErrorCode.INVALID_TRANSACTION_TIMEOUT,
    );
    expect((await txn.wire.init('tx-timeout', 0)).errorCode).toBe(ErrorCode.INVALID_TRANSACTION_TIMEOUT);
    expect((await txn.wire.init('tx-timeout', 120_000)).errorCode).toBe(0);
  });

  it('commits: markers on every partition move the last stable offset, then the answer comes', async () => {
    const claim = await txn.wire.claim('tx-commit');
    expect(await txn.wire.addPartitions(claim, 'txn', [1, 2])).toEqual([0, 0]);
    expect(await txn.wire.produce(claim, 'txn', 1, ['a', 'b', 'c'], 0)).toBe(0);
    expect(await txn.wire.produce(claim, 'txn', 2, ['d'], 0)).toBe(0);
    expect(await txn.wire.latest('txn', 1, false)).toBe(3);
    expect(await txn.wire.latest('txn', 1, true)).toBe(0);
    expect((await txn.inspector.describe('tx-commit')).transactionState).toBe('Ongoing');

    expect(await txn.wire.end(claim, true)).toBe(0);
    // Three records and the COMMIT marker; nothing open, so the LSO is the high watermark.
    expect(await txn.wire.latest('txn', 1, false)).toBe(4);
    expect(await txn.wire.latest('txn', 1, true)).toBe(4);
    expect(await txn.wire.latest('txn', 2, true)).toBe(2);
    const described = await txn.inspector.describe('tx-commit');
    expect(described).toMatchObject({ errorCode: 0, transactionState: 'CompleteCommit', topics: [] });
    // A retry with the same result succeeds; the other result is refused.
    expect(await txn.wire.end(claim, true)).toBe(0);
    expect(await txn.wire.end(claim, false)).toBe(ErrorCode.INVALID_TXN_STATE);
  });

  it('aborts: markers are written and the transaction ends CompleteAbort', async () => {
    const claim = await txn.wire.claim('tx-abort');
    expect(await txn.wire.addPartitions(claim, 'txn', [3])).toEqual([0]);
    expect(await txn.wire.produce(claim, 'txn', 3, ['x', 'y'], 0)).toBe(0);
    expect(await txn.wire.latest('txn', 3, true)).toBe(0);
    expect(await txn.wire.end(claim, false)).toBe(0);
    expect(await txn.wire.latest('txn', 3, false)).toBe(3);
    expect(await txn.wire.latest('txn', 3, true)).toBe(3);
    expect((await txn.inspector.describe('tx-abort')).transactionState).toBe('CompleteAbort');
    expect(await txn.wire.end(claim, true)).toBe(ErrorCode.INVALID_TXN_STATE);
    // The next transaction of the same producer starts from CompleteAbort.
    expect(await txn.wire.addPartitions(claim, 'txn', [3])).toEqual([0]);
    expect(await txn.wire.produce(claim, 'txn', 3, ['z'], 2)).toBe(0);
    expect(await txn.wire.end(claim, true)).toBe(0);
  });

  it('refuses a transactional write to a partition that was not added', async () => {
    const claim = await txn.wire.claim('tx-not-added');
    expect(await txn.wire.produce(claim, 'txn', 4, ['stray'], 0)).toBe(ErrorCode.INVALID_TXN_STATE);
    expect(await txn.wire.addPartitions(claim, 'txn', [4, 99])).toEqual([
      ErrorCode.OPERATION_NOT_ATTEMPTED,
      ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    ]);
    expect(await txn.wire.end(claim, true)).toBe(ErrorCode.INVALID_TXN_STATE);
  });

  it('InitProducerId over an open transaction aborts it first, with a fencing epoch', async () => {
    const claim = await txn.wire.claim('tx-reinit');
    expect(await txn.wire.addPartitions(claim, 'txn', [5])).toEqual([0]);
    expect(await txn.wire.produce(claim, 'txn', 5, ['open'], 0)).toBe(0);
    expect(await txn.wire.latest('txn', 5, true)).toBe(0);
    const next = await txn.wire.claim('tx-reinit');
    // One bump for the abort's markers, one for the new producer.
    expect(next.producerEpoch).toBe(claim.producerEpoch + 2);
    expect(await txn.wire.latest('txn', 5, false)).toBe(2);
    expect(await txn.wire.latest('txn', 5, true)).toBe(2);
    expect((await txn.inspector.describe('tx-reinit')).transactionState).toBe('Empty');
  });

  it('applies TxnOffsetCommit offsets only when the transaction commits', async () => {
    const committedOffset = async () => {
      const answer = await txn.client.request(OffsetFetch, 4, {
        groupId: 'txn-group',
        topics: [{ name: 'txn', partitionIndexes: [6] }],
      });
      return Number(answer.topics[0]!.partitions[0]!.committedOffset);
    };
    const claim = await txn.wire.claim('tx-offsets');
    expect(await txn.wire.commitOffsets(claim, 'txn-group', 'txn', { 6: 10 })).toEqual([
      ErrorCode.INVALID_TXN_STATE,
    ]);
    expect(await txn.wire.addOffsets(claim, 'txn-group')).toBe(0);
    expect(await txn.wire.commitOffsets(claim, 'txn-group', 'txn', { 6: 10 })).toEqual([0]);
    expect(await committedOffset()).toBe(-1);
    expect(await txn.wire.end(claim, false)).toBe(0);
    expect(await committedOffset()).toBe(-1);

    expect(await txn.wire.addOffsets(claim, 'txn-group')).toBe(0);
    expect(await txn.wire.commitOffsets(claim, 'txn-group', 'txn', { 6: 20 })).toEqual([0]);
    expect(await txn.wire.end(claim, true)).toBe(0);
    expect(await committedOffset()).toBe(20);
  });

  it('lists transactions by state and producer id, reporting unknown state filters', async () => {
    const claim = await txn.wire.claim('tx-listed');
    expect(await txn.wire.addPartitions(claim, 'txn', [7])).toEqual([0]);
    const ongoing = await txn.inspector.list(['Ongoing', 'Sleeping'], []);
    expect(ongoing.errorCode).toBe(0);
    expect(ongoing.unknownStateFilters).toEqual(['Sleeping']);
    expect(ongoing.transactionStates).toContainEqual({
      transactionalId: 'tx-listed',
      producerId: claim.producerId,
      transactionState: 'Ongoing',
    });
    const byProducer = await txn.inspector.list([], [claim.producerId]);
    expect(byProducer.transactionStates.map((row) => row.transactionalId)).toEqual(['tx-listed']);
    const described = await txn.inspector.describe('tx-listed');
    expect(described).toMatchObject({
      transactionState: 'Ongoing',
      transactionTimeoutMs: 60_000,
      producerId: claim.producerId,
      topics: [{ topic: 'txn', partitions: [7] }],
    });
    expect(described.transactionStartTimeMs).toBeGreaterThan(0n);
    expect((await txn.inspector.describe('never-seen')).errorCode).toBe(ErrorCode.TRANSACTIONAL_ID_NOT_FOUND);
    expect(await txn.wire.end(claim, false)).toBe(0);
  });
});
