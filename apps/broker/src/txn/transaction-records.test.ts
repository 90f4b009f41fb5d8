import { describe, expect, it } from 'vitest';
import { newTransactionMetadata, partitionKey, transition } from './transaction-metadata';
import { decodeTransactionRecord, encodeTransactionRecord } from './transaction-records';

describe('__transaction_state records', () => {
  it('round-trip metadata with partitions and staged offsets', () => {
    const metadata = newTransactionMetadata('tx-1', {
      producerId: 9007199254740993n,
      producerEpoch: 7,
      timeoutMs: 60_000,
      nowMs: 1_000,
    });
    transition(metadata, 'Ongoing', 2_000);
    metadata.partitions.set(partitionKey({ topic: 'a', partition: 3 }), { topic: 'a', partition: 3 });
    metadata.offsetGroups.set(
      'group',
      new Map([
        [
          partitionKey({ topic: 'in', partition: 0 }),
          { topic: 'in', partition: 0, offset: 42, leaderEpoch: -1, metadata: null },
        ],
      ]),
    );
    const { key, value } = encodeTransactionRecord({ transactionalId: 'tx-1', value: metadata });
    expect(decodeTransactionRecord(key, value)).toEqual({ transactionalId: 'tx-1', value: metadata });
  });

  it('round-trip a tombstone, and skip unknown versions instead of failing', () => {
    const { key } = encodeTransactionRecord({ transactionalId: 'gone', value: null });
    expect(decodeTransactionRecord(key, null)).toEqual({ transactionalId: 'gone', value: null });
    expect(decodeTransactionRecord(key, Buffer.from([0, 9]))).toBeUndefined();
    expect(decodeTransactionRecord(Buffer.from([0, 5, 0, 0]), null)).toBeUndefined();
  });
});
