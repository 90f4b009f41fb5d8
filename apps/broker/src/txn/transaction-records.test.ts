import { Reader } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import {
  newTransactionMetadata,
  partitionKey,
  type TransactionMetadata,
  transition,
} from './transaction-metadata';
import {
  decodeTransactionRecord,
  encodeTransactionRecord,
  isOutdatedTransactionRecord,
  STATE_IDS,
} from './transaction-records';

function ongoing(): TransactionMetadata {
  const metadata = newTransactionMetadata('tx-1', {
    producerId: 9007199254740993n,
    producerEpoch: 7,
    timeoutMs: 60_000,
    nowMs: 1_000,
  });
  transition(metadata, 'Ongoing', 2_000);
  for (const partition of [
    { topic: 'a', partition: 3 },
    { topic: 'b', partition: 0 },
    { topic: 'a', partition: 1 },
  ]) {
    metadata.partitions.set(partitionKey(partition), partition);
  }
  return metadata;
}

function withStagedOffset(metadata: TransactionMetadata): TransactionMetadata {
  const staged = { topic: 'in', partition: 0, offset: 42, leaderEpoch: -1, metadata: null };
  metadata.offsetGroups.set('g', new Map([[partitionKey(staged), staged]]));
  return metadata;
}

/**
 * TransactionLogValue as Kafka 3.9's generated reader takes it (its schema's fields in order at
 * version 1, flexible: compact strings and arrays, a tagged-field section closing every struct,
 * and no tagged field defined, so every tag is skipped), written here from the schema rather than
 * with the codec under test.
 */
function readAsKafka39(bytes: Uint8Array) {
  const reader = new Reader(bytes);
  const version = reader.int16();
  const producerId = reader.int64();
  const producerEpoch = reader.int16();
  const timeoutMs = reader.int32();
  const status = reader.int8();
  const topicCount = reader.compactArrayLength();
  const partitions: { topic: string; ids: number[] }[] | null = topicCount === null ? null : [];
  for (let index = 0; index < (topicCount ?? 0); index++) {
    const topic = reader.compactString();
    const ids = Array.from({ length: reader.compactArrayLength()! }, () => reader.int32());
    reader.taggedFields();
    partitions!.push({ topic, ids });
  }
  const lastUpdateMs = reader.int64();
  const startMs = reader.int64();
  const skippedTags: number[] = [];
  reader.taggedFields((tag) => skippedTags.push(tag));
  reader.expectEnd('TransactionLogValue');
  return {
    version,
    producerId,
    producerEpoch,
    timeoutMs,
    status,
    partitions,
    lastUpdateMs,
    startMs,
    skippedTags,
  };
}

describe('__transaction_state records', () => {
  it('round-trip metadata with partitions and staged offsets, Empty metadata, and a tombstone', () => {
    const metadata = withStagedOffset(ongoing());
    const { key, value } = encodeTransactionRecord({ transactionalId: 'tx-1', value: metadata });
    expect(decodeTransactionRecord(key, value)).toEqual({ transactionalId: 'tx-1', value: metadata });
    const empty = newTransactionMetadata('idle', {
      producerId: 5n,
      producerEpoch: 0,
      timeoutMs: 1,
      nowMs: 3,
    });
    const idle = encodeTransactionRecord({ transactionalId: 'idle', value: empty });
    expect(decodeTransactionRecord(idle.key, idle.value)).toEqual({ transactionalId: 'idle', value: empty });
    const tombstone = encodeTransactionRecord({ transactionalId: 'gone', value: null });
    expect(tombstone.value).toBeNull();
    expect(decodeTransactionRecord(tombstone.key, null)).toEqual({ transactionalId: 'gone', value: null });
  });

  it("writes Kafka's TransactionLogKey v0 and TransactionLogValue v1, partitions grouped by topic", () => {
    const { key, value } = encodeTransactionRecord({ transactionalId: 'tx-1', value: ongoing() });
    expect(key.toString('hex')).toBe(`0000${'0004'}${Buffer.from('tx-1').toString('hex')}`);
    const partitions = `03${'0261'}03${'00000003'}${'00000001'}00${'0262'}02${'00000000'}00`;
    expect(value!.toString('hex')).toBe(
      `0001${'0020000000000001'}0007${'0000ea60'}01${partitions}${'00000000000007d0'}${'00000000000007d0'}00`,
    );
    expect(readAsKafka39(value!)).toEqual({
      version: 1,
      producerId: 9007199254740993n,
      producerEpoch: 7,
      timeoutMs: 60_000,
      status: 1,
      partitions: [
        { topic: 'a', ids: [3, 1] },
        { topic: 'b', ids: [0] },
      ],
      lastUpdateMs: 2000n,
      startMs: 2000n,
      skippedTags: [],
    });
  });

  it('carries staged offsets in tag 10000, which Kafka 3.9 skips', () => {
    const metadata = withStagedOffset(ongoing());
    transition(metadata, 'PrepareCommit', 3_000);
    const { value } = encodeTransactionRecord({ transactionalId: 'tx-1', value: metadata });
    // One group "g" (compact string: length + 1), one offset of in-0 at 42, leader epoch -1, null
    // metadata, each struct closed by an empty tagged section: 26 bytes.
    const staged = `02${'0267'}02${'03696e'}${'00000000'}${'000000000000002a'}${'ffffffff'}00${'00'}00`;
    expect(value!.toString('hex').endsWith(`${'00000000000007d0'}01${'904e'}1a${staged}`)).toBe(true);
    expect(readAsKafka39(value!)).toMatchObject({ status: STATE_IDS.PrepareCommit, skippedTags: [10_000] });
  });

  it('writes an Empty transaction with null partitions, as Kafka does, and uses Kafka’s state ids', () => {
    const empty = newTransactionMetadata('idle', {
      producerId: 5n,
      producerEpoch: 0,
      timeoutMs: 1,
      nowMs: 3,
    });
    const { value } = encodeTransactionRecord({ transactionalId: 'idle', value: empty });
    expect(readAsKafka39(value!)).toMatchObject({ status: 0, partitions: null, startMs: -1n });
    expect(STATE_IDS).toEqual({
      Empty: 0,
      Ongoing: 1,
      PrepareCommit: 2,
      PrepareAbort: 3,
      CompleteCommit: 4,
      CompleteAbort: 5,
      Dead: 6,
      PrepareEpochFence: 7,
    });
  });

  it("reads Weir's earlier layout (value version 0) and calls it outdated", () => {
    const { key, value } = encodeTransactionRecord({ transactionalId: 'tx-1', value: ongoing() });
    expect(isOutdatedTransactionRecord(key, value)).toBe(false);
    expect(isOutdatedTransactionRecord(key, null)).toBe(false);
    const text = (value: string) =>
      `${value.length.toString(16).padStart(4, '0')}${Buffer.from(value).toString('hex')}`;
    // pid 9, epoch 2, timeout 1000, "PrepareCommit", start 5, last update 6, one partition out-1,
    // one group "g" with one offset in-0 at 42, leader epoch 3, metadata "m".
    const legacy = Buffer.from(
      `0000${'0000000000000009'}0002${'000003e8'}${text('PrepareCommit')}${'0000000000000005'}${'0000000000000006'}` +
        `${'00000001'}${text('out')}${'00000001'}${'00000001'}${text('g')}${'00000001'}` +
        `${text('in')}${'00000000'}${'000000000000002a'}${'00000003'}${text('m')}`,
      'hex',
    );
    expect(isOutdatedTransactionRecord(key, legacy)).toBe(true);
    expect(decodeTransactionRecord(key, legacy)).toEqual({
      transactionalId: 'tx-1',
      value: {
        transactionalId: 'tx-1',
        producerId: 9n,
        producerEpoch: 2,
        timeoutMs: 1000,
        state: 'PrepareCommit',
        partitions: new Map([[partitionKey({ topic: 'out', partition: 1 }), { topic: 'out', partition: 1 }]]),
        offsetGroups: new Map([
          [
            'g',
            new Map([
              [
                partitionKey({ topic: 'in', partition: 0 }),
                { topic: 'in', partition: 0, offset: 42, leaderEpoch: 3, metadata: 'm' },
              ],
            ]),
          ],
        ]),
        startTimeMs: 5,
        lastUpdateMs: 6,
      },
    });
  });

  it('skips unknown key versions, value versions and state ids, and rejects bytes that lie', () => {
    const { key, value } = encodeTransactionRecord({ transactionalId: 'tx-1', value: ongoing() });
    expect(decodeTransactionRecord(key, Buffer.from([0, 9]))).toBeUndefined();
    expect(decodeTransactionRecord(Buffer.from([0, 5, 0, 0]), null)).toBeUndefined();
    const unknownState = Buffer.from(value!);
    unknownState[2 + 8 + 2 + 4] = 8;
    expect(decodeTransactionRecord(key, unknownState)).toBeUndefined();
    expect(() => decodeTransactionRecord(key, value!.subarray(0, value!.length - 1))).toThrow();
    expect(() => decodeTransactionRecord(key, Buffer.concat([value!, Buffer.from([0])]))).toThrow();
    expect(() => decodeTransactionRecord(key.subarray(0, key.length - 1), null)).toThrow();
  });
});
