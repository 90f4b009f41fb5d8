import { ErrorCode, WeirApplyTxnOffsets, WeirVerifyTransactionMembership } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import { internalSession } from './internal-fixtures';
import { txnBrokerPerSuite } from './txn-fixtures';

/**
 * The Weir-only broker-to-broker transaction APIs by raw request on the internal listener: what a
 * peer's produce path and transaction coordinator send, and what bad values get.
 */
describe('WeirVerifyTransactionMembership and WeirApplyTxnOffsets', () => {
  const suite = txnBrokerPerSuite(
    { transactions: { stateTopicPartitions: 1 } },
    { name: 'itx', partitionCount: 2 },
  );

  it("answers membership from this broker's coordinator", async () => {
    const { wire, running } = suite;
    const old = await wire.claim('itx-tx');
    const claim = await wire.claim('itx-tx');
    expect(await wire.addPartitions(claim, 'itx', [0])).toEqual([ErrorCode.NONE]);
    const session = internalSession(running);
    try {
      const ask = async (
        fields: Partial<{
          transactionalId: string | null;
          producerEpoch: number;
          partition: number;
          producerId: bigint;
        }>,
      ) =>
        (
          await session.client.send('any', WeirVerifyTransactionMembership, {
            transactionalId: 'itx-tx',
            producerId: claim.producerId,
            producerEpoch: claim.producerEpoch,
            topic: 'itx',
            partition: 0,
            ...fields,
          })
        ).errorCode;
      expect(await ask({})).toBe(ErrorCode.NONE);
      expect(await ask({ partition: 1 })).toBe(ErrorCode.INVALID_TXN_STATE);
      expect(await ask({ producerEpoch: old.producerEpoch })).toBe(ErrorCode.INVALID_PRODUCER_EPOCH);
      expect(await ask({ producerId: -1n })).toBe(ErrorCode.INVALID_REQUEST);
      expect(await ask({ partition: -3 })).toBe(ErrorCode.INVALID_REQUEST);
    } finally {
      await session.close();
    }
  });

  it('applies offsets to the group, and refuses offsets out of range', async () => {
    const { running } = suite;
    const session = internalSession(running);
    try {
      const apply = async (offset: bigint) =>
        (
          await session.client.send('any', WeirApplyTxnOffsets, {
            groupId: 'itx-group',
            producerId: 12n,
            producerEpoch: 0,
            offsets: [{ topic: 'itx', partition: 1, offset, leaderEpoch: -1, metadata: 'm' }],
          })
        ).errorCode;
      expect(await apply(-5n)).toBe(ErrorCode.INVALID_REQUEST);
      expect(await apply(2n ** 60n)).toBe(ErrorCode.INVALID_REQUEST);
      expect(await apply(9n)).toBe(ErrorCode.NONE);
    } finally {
      await session.close();
    }
    const fetched = running.broker.services.groups.fetchOffsets('itx-group', [
      { name: 'itx', partitionIndexes: [1] },
    ]);
    expect(fetched.topics[0]!.partitions[0]).toMatchObject({
      partitionIndex: 1,
      committedOffset: 9,
      metadata: 'm',
    });
  });
});
