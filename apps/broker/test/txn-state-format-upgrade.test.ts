import { OffsetFetch, Writer } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { decodeTransactionRecord, encodeTransactionRecord } from '../src/txn/transaction-records';
import {
  appendRecords,
  type KeyedRecord,
  leaveKilledMidAppend,
  partitionRecords,
  valueVersions,
} from './internal-topic-upgrade-fixtures';
import { temporaryDirectory } from './log-fixtures';
import { RawClient } from './raw-client';
import { type Claim, TxnInspector, TxnWire } from './txn-fixtures';

vi.setConfig({ testTimeout: 60_000 });

/**
 * Issue 20 item 4: `__transaction_state` holds Kafka's record layout (TransactionLogValue v1), and
 * a directory written in Weir's earlier layout is upgraded once at start. Such a directory is made
 * here by appending records in the earlier layout (value version 0, built by hand from the layout
 * transaction-records-legacy.ts documents) to the topic of a stopped broker through the log layer:
 * they say what the transactions the broker had really were, and are the latest record of each id.
 */

const TOPIC = '__transaction_state';
const SETTINGS = {
  topics: { autoCreateEnable: false },
  groups: { offsetsTopicPartitions: 1 },
  transactions: { stateTopicPartitions: 1 },
};

interface LegacyTransaction {
  claim: Claim;
  state: 'Ongoing' | 'PrepareCommit';
  startTimeMs: number;
  partitions: { topic: string; partition: number }[];
  offsets: { groupId: string; topic: string; partition: number; offset: number }[];
}

/** A record in Weir's earlier layout: key (int16 0, id), value version 0. */
function legacyRecord(transaction: LegacyTransaction): KeyedRecord {
  const { claim } = transaction;
  const key = Buffer.from(new Writer(64).int16(0).string(claim.transactionalId).finish());
  const writer = new Writer(256).int16(0).int64(claim.producerId).int16(claim.producerEpoch).int32(60_000);
  writer
    .string(transaction.state)
    .int64(BigInt(transaction.startTimeMs))
    .int64(BigInt(Date.now()))
    .int32(transaction.partitions.length);
  for (const { topic, partition } of transaction.partitions) writer.string(topic).int32(partition);
  const groups = [...new Set(transaction.offsets.map(({ groupId }) => groupId))];
  writer.int32(groups.length);
  for (const groupId of groups) {
    const offsets = transaction.offsets.filter((offset) => offset.groupId === groupId);
    writer.string(groupId).int32(offsets.length);
    for (const { topic, partition, offset } of offsets) {
      writer.string(topic).int32(partition).int64(BigInt(offset)).int32(-1).nullableString(null);
    }
  }
  return { key, value: Buffer.from(writer.finish()) };
}

describe('__transaction_state in Kafka’s record layout', () => {
  let directory: { path: string; cleanup: () => Promise<void> };
  const started: RunningBroker[] = [];
  const clients: RawClient[] = [];

  beforeEach(async () => {
    directory = await temporaryDirectory('weir-txn-format-');
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close().catch(() => {});
    for (const running of started.splice(0)) await running.stop();
    await directory.cleanup();
  });

  async function start(): Promise<{ running: RunningBroker; wire: TxnWire; client: RawClient }> {
    const running = await startBroker(SETTINGS, directory.path);
    started.push(running);
    const client = await RawClient.connect(running.bootstrap);
    clients.push(client);
    return { running, wire: new TxnWire(client), client };
  }

  async function stop(): Promise<void> {
    for (const client of clients.splice(0)) await client.close();
    for (const running of started.splice(0)) await running.stop();
  }

  /**
   * Runs two transactions on a fresh broker and stops it with both open: `tx-open` with data in
   * kept-1, `tx-prepared` with data in kept-0 and offset 7 of kept-0 staged for group `g`. Returns
   * the records in Weir's earlier layout of an older broker that had them in that state, the
   * second one decided: PrepareCommit, its markers and offsets not yet written.
   */
  async function olderBrokersTransactions(): Promise<{
    open: Claim;
    prepared: Claim;
    legacy: KeyedRecord[];
  }> {
    const { running, wire } = await start();
    await running.broker.services.topics.createTopic({ name: 'kept', partitionCount: 2, configs: {} });
    const open = await wire.claim('tx-open');
    expect(await wire.addPartitions(open, 'kept', [1])).toEqual([0]);
    expect(await wire.produce(open, 'kept', 1, ['two', 'three'], 0)).toBe(0);
    const prepared = await wire.claim('tx-prepared');
    expect(await wire.addPartitions(prepared, 'kept', [0])).toEqual([0]);
    expect(await wire.produce(prepared, 'kept', 0, ['a', 'b'], 0)).toBe(0);
    expect(await wire.addOffsets(prepared, 'g')).toBe(0);
    expect(await wire.commitOffsets(prepared, 'g', 'kept', { 0: 7 })).toEqual([0]);
    await stop();
    const startTimeMs = Date.now() - 1000;
    return {
      open,
      prepared,
      legacy: [
        legacyRecord({
          claim: open,
          state: 'Ongoing',
          startTimeMs,
          partitions: [{ topic: 'kept', partition: 1 }],
          offsets: [],
        }),
        legacyRecord({
          claim: prepared,
          state: 'PrepareCommit',
          startTimeMs,
          partitions: [{ topic: 'kept', partition: 0 }],
          offsets: [{ groupId: 'g', topic: 'kept', partition: 0, offset: 7 }],
        }),
      ],
    };
  }

  /** What a start on the upgraded directory must serve: both transactions as the older broker had them. */
  async function expectRecovered(open: Claim): Promise<void> {
    const { running, wire, client } = await start();
    const inspector = new TxnInspector(running);
    try {
      // start() resolves once the prepared transactions found at load are complete.
      expect(await inspector.describe('tx-prepared')).toMatchObject({ transactionState: 'CompleteCommit' });
      expect(await wire.latest('kept', 0, true)).toBe(3);
      const offsets = await client.request(OffsetFetch, 4, {
        groupId: 'g',
        topics: [{ name: 'kept', partitionIndexes: [0] }],
      });
      expect(offsets.topics[0]!.partitions[0]!.committedOffset).toBe(7n);
      // The open transaction is still open, with its partition, and goes on to commit.
      expect(await inspector.describe('tx-open')).toMatchObject({
        transactionState: 'Ongoing',
        producerId: open.producerId,
        producerEpoch: open.producerEpoch,
        topics: [{ topic: 'kept', partitions: [1] }],
      });
      expect(await wire.latest('kept', 1, true)).toBe(0);
      expect(await wire.produce(open, 'kept', 1, ['four'], 2)).toBe(0);
      expect(await wire.end(open, true)).toBe(0);
      expect(await wire.latest('kept', 1, true)).toBe(4);
    } finally {
      await inspector.close();
    }
    await stop();
  }

  it('rewrites an older directory’s transactions once at start, and completes them', async () => {
    const { open, legacy } = await olderBrokersTransactions();
    // Written by this broker: TransactionLogValue v1 only.
    const written = await valueVersions(directory.path, TOPIC);
    expect(written.length).toBeGreaterThan(0);
    expect(new Set(written)).toEqual(new Set([1]));
    await appendRecords(directory.path, TOPIC, legacy);

    await expectRecovered(open);
    // The upgrade wrote both ids again in Kafka's layout right after the old records, then the
    // completion and the commit went on in it.
    const upgraded = await valueVersions(directory.path, TOPIC);
    expect(upgraded.slice(0, written.length + 2)).toEqual([...written, 0, 0]);
    expect(new Set(upgraded.slice(written.length + 2))).toEqual(new Set([1]));
    const rewrite = legacy.map(({ key, value }) =>
      encodeTransactionRecord(decodeTransactionRecord(key, value)!),
    );
    const records = await partitionRecords(directory.path, TOPIC);
    expect(records.slice(written.length + 2, written.length + 4)).toEqual(rewrite);

    // Once rewritten, a start finds nothing outdated and writes nothing.
    const { running } = await start();
    const inspector = new TxnInspector(running);
    expect((await inspector.describe('tx-open')).transactionState).toBe('CompleteCommit');
    await inspector.close();
    await stop();
    expect(await valueVersions(directory.path, TOPIC)).toEqual(upgraded);
  });

  it('completes the upgrade at the next start after a kill in the middle of the rewrite', async () => {
    const { open, legacy } = await olderBrokersTransactions();
    const before = (await valueVersions(directory.path, TOPIC)).length;
    await appendRecords(directory.path, TOPIC, legacy);
    // What the rewrite writes: each id's replayed state in Kafka's layout.
    const [openRewrite, preparedRewrite] = legacy.map(({ key, value }) =>
      encodeTransactionRecord(decodeTransactionRecord(key, value)!),
    );
    // The kill came after the rewrite's first batch (tx-open's) was durable, while its second
    // (tx-prepared's) was being written: the log ends in half of it.
    await appendRecords(directory.path, TOPIC, [openRewrite!]);
    await leaveKilledMidAppend(directory.path, TOPIC, [preparedRewrite!]);

    await expectRecovered(open);
    const versions = await valueVersions(directory.path, TOPIC);
    // The torn half is gone, and the next start rewrote both ids (tx-prepared's latest record was
    // still outdated) before completing the PrepareCommit and serving the commit of tx-open.
    expect(versions.slice(before, before + 5)).toEqual([0, 0, 1, 1, 1]);
    const records = await partitionRecords(directory.path, TOPIC);
    expect(records.slice(before + 3, before + 5)).toEqual([openRewrite, preparedRewrite]);
  });
});
