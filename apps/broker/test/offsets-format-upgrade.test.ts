import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Admin, Client, Writer } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeCoordinatorRecord, encodeCoordinatorRecord } from '../src/group/offsets-records';
import {
  appendRecords,
  leaveKilledMidAppend,
  partitionRecords,
  valueVersions as topicValueVersions,
} from './internal-topic-upgrade-fixtures';

/**
 * Issue 20 item 4: `__consumer_offsets` holds Kafka's record layout, and a directory written in
 * Weir's earlier layout is upgraded once at start. Such a directory is made here by appending
 * records in the earlier layout (value version 0, built by hand from the layout the old
 * offsets-records.ts documented) to the topic of a stopped broker through the log layer.
 */

const OFFSETS_TOPIC = '__consumer_offsets';

/** Weir's earlier offset value: version 0, offset, leader epoch, nullable metadata, commit and expire times. */
function legacyOffsetValue(offset: number, commitTimestampMs: number): Buffer {
  const writer = new Writer(64)
    .int16(0)
    .int64(BigInt(offset))
    .int32(-1)
    .nullableString(null)
    .int64(BigInt(commitTimestampMs))
    .int64(-1n);
  return Buffer.from(writer.finish());
}

/** The key layout, unchanged: version 1, group, topic, partition. */
function offsetKey(group: string, topic: string, partition: number): Buffer {
  return Buffer.from(new Writer(64).int16(1).string(group).string(topic).int32(partition).finish());
}

/** The int16 version each record's value of `__consumer_offsets` starts with, in log order. */
function valueVersions(dataDir: string): Promise<(number | null)[]> {
  return topicValueVersions(dataDir, OFFSETS_TOPIC);
}

/** An older broker's offsets 10, 20 and 30 of orders-0, -1 and -2 for group "older", in its layout. */
function olderGroupsOffsets() {
  return [0, 1, 2].map((partition) => ({
    key: offsetKey('older', 'orders', partition),
    value: legacyOffsetValue(10 * (partition + 1), Date.now()),
  }));
}

describe('__consumer_offsets in Kafka’s record layout', () => {
  let dataDir: string | undefined;
  let broker: RunningBroker | undefined;
  let client: Client | undefined;

  afterEach(async () => {
    await client?.close();
    await broker?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  async function start(): Promise<Admin> {
    broker = await startBroker({ groups: { offsetsTopicPartitions: 1 } }, dataDir);
    client = new Client({ bootstrapServers: [broker.bootstrap] });
    return new Admin(client);
  }

  async function stop(): Promise<void> {
    await client?.close();
    client = undefined;
    await broker?.stop();
    broker = undefined;
  }

  it('rewrites an older directory’s offsets once at start, and serves them throughout', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'weir-offsets-format-'));
    let admin = await start();
    await admin.createTopics([{ name: 'orders', partitions: 3 }]);
    await admin.resetOffsets('current', { offset: 0 }, { topics: ['orders'] });
    await stop();
    // Written by this broker: Kafka's group value v3 and offset value v3.
    const written = await valueVersions(dataDir);
    expect(written.length).toBeGreaterThan(0);
    expect(new Set(written)).toEqual(new Set([3]));

    // The older broker's records for another group.
    await appendRecords(dataDir, OFFSETS_TOPIC, olderGroupsOffsets());

    admin = await start();
    expect((await admin.fetchOffsets('older')).map(({ partition, offset }) => [partition, offset])).toEqual([
      [0, 10n],
      [1, 20n],
      [2, 30n],
    ]);
    expect((await admin.fetchOffsets('current')).map(({ offset }) => offset)).toEqual([0n, 0n, 0n]);
    await stop();

    // The upgrade appended the three offsets again in Kafka's layout, after the old records.
    const upgraded = await valueVersions(dataDir);
    expect(upgraded.slice(0, written.length + 3)).toEqual([...written, 0, 0, 0]);
    const rewritten = upgraded.slice(written.length + 3);
    expect(rewritten.length).toBeGreaterThanOrEqual(3);
    expect(new Set(rewritten)).toEqual(new Set([3]));

    // Once rewritten, a start finds nothing outdated and writes nothing.
    admin = await start();
    expect((await admin.fetchOffsets('older')).map(({ offset }) => offset)).toEqual([10n, 20n, 30n]);
    await stop();
    expect(await valueVersions(dataDir)).toEqual(upgraded);
  });

  it('completes the upgrade at the next start after a kill in the middle of the rewrite', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'weir-offsets-format-kill-'));
    let admin = await start();
    await admin.createTopics([{ name: 'orders', partitions: 3 }]);
    await admin.resetOffsets('current', { offset: 0 }, { topics: ['orders'] });
    await stop();
    const legacy = olderGroupsOffsets();
    await appendRecords(dataDir, OFFSETS_TOPIC, legacy);
    // What the rewrite writes for them: the same offsets in Kafka's layout.
    const rewrite = legacy.map(({ key, value }) =>
      encodeCoordinatorRecord(decodeCoordinatorRecord(key, value)!),
    );
    // The kill came after a first batch of the rewrite (orders-0's) was durable, while the next
    // (orders-1's and -2's) was being written: the log ends in half of it.
    await appendRecords(dataDir, OFFSETS_TOPIC, rewrite.slice(0, 1));
    await leaveKilledMidAppend(dataDir, OFFSETS_TOPIC, rewrite.slice(1));
    const before = await valueVersions(dataDir);

    admin = await start();
    expect((await admin.fetchOffsets('older')).map(({ partition, offset }) => [partition, offset])).toEqual([
      [0, 10n],
      [1, 20n],
      [2, 30n],
    ]);
    expect((await admin.fetchOffsets('current')).map(({ offset }) => offset)).toEqual([0n, 0n, 0n]);
    await stop();
    // The torn half is gone, and the next start wrote the whole state again in Kafka's layout,
    // orders-1 and -2 of "older" among it (their latest records were still outdated).
    const records = await partitionRecords(dataDir, OFFSETS_TOPIC);
    const rewritten = records.slice(before.length);
    expect(rewritten.length).toBeGreaterThanOrEqual(3);
    expect(new Set(rewritten.map(({ value }) => value?.readInt16BE(0)))).toEqual(new Set([3]));
    for (const record of rewrite.slice(1)) expect(rewritten).toContainEqual(record);

    // Once complete, a start finds nothing outdated and writes nothing.
    admin = await start();
    expect((await admin.fetchOffsets('older')).map(({ offset }) => offset)).toEqual([10n, 20n, 30n]);
    await stop();
    expect(await partitionRecords(dataDir, OFFSETS_TOPIC)).toEqual(records);
  });
});
