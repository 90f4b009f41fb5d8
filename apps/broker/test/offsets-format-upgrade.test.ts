import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Admin, Client, decodeRecordBatch, encodeRecordBatch, iterateBatches, Writer } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterEach, describe, expect, it } from 'vitest';
import { createManager } from './log-fixtures';

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

/** The broker keeps its partition logs under `logs/` in its data directory (broker.ts). */
/** The int16 version each record's value starts with (null for a tombstone), in log order. */
async function valueVersions(dataDir: string): Promise<(number | null)[]> {
  const manager = createManager(join(dataDir, 'logs'));
  try {
    await manager.start();
    const log = manager.getLog(OFFSETS_TOPIC, 0)!;
    const versions: (number | null)[] = [];
    let offset = log.logStartOffset;
    while (offset < log.logEndOffset) {
      const { records } = await log.read(offset, { maxBytes: 1 << 20, maxOffset: log.logEndOffset });
      for (const item of iterateBatches(records as Buffer)) {
        if (item.kind !== 'batch') throw new Error(`unreadable batch at ${item.position}`);
        const decoded = decodeRecordBatch(item.bytes);
        if (!decoded.ok) throw decoded.error;
        for (const record of decoded.value.records) {
          versions.push(record.value === null ? null : record.value.readInt16BE(0));
        }
        offset = Number(decoded.value.baseOffset) + decoded.value.lastOffsetDelta + 1;
      }
    }
    return versions;
  } finally {
    await manager.shutdown();
  }
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
    const manager = createManager(join(dataDir, 'logs'));
    await manager.start();
    const log = manager.getLog(OFFSETS_TOPIC, 0)!;
    const legacy = [0, 1, 2].map((partition) => ({
      key: offsetKey('older', 'orders', partition),
      value: legacyOffsetValue(10 * (partition + 1), Date.now()),
      timestampMs: Date.now(),
    }));
    await log.append(encodeRecordBatch({ records: legacy }), { origin: 'coordinator' });
    await manager.shutdown();

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
});
