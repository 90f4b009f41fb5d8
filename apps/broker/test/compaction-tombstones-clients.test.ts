import { Admin, Client } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompactedTopic, kafkajsRecordsTo } from './compaction-fixtures';
import { pollUntil } from './group-fixtures';
import { type KcatRecord, kcat, kcatEndOffset, kcatRecords } from './kcat-clients';

/**
 * Tombstones on a compacted topic through real clients (issue #19). The broker's rule
 * (partition-cleaner.ts, record-retention.ts, docs/architecture.md §4 "Compaction"): a clean
 * removes every value a later record of the same key supersedes, tombstones' older values too, but
 * keeps the tombstone itself through the first clean that rewrites its segment; a later clean
 * removes it once that segment's newest record time is more than delete.retention.ms in the past.
 * So with delete.retention.ms a day, kcat and kafkajs read the tombstone as a null-valued record
 * however often the cleaner runs; lowered to 0, the next clean (a new dirty segment makes one due)
 * removes it, and every other key keeps its latest value at its own offset.
 */

const TOPIC = 'deletes';
const KEYS = 5;
const ROUNDS = 12;
const DELETED = ['key-1', 'key-3'];
const DAY_MS = String(24 * 60 * 60 * 1000);

/** What was produced, in order: record i is at offset i, as kcat writes to one partition in order. */
interface ProducedRecord {
  key: string;
  value: string | null;
}

describe('tombstones on a compacted topic, with kcat and kafkajs', () => {
  let broker: RunningBroker;
  let client: Client;
  const produced: ProducedRecord[] = [];

  /** Produces with kcat: `-Z` sends the empty value of a `key:` line as NULL, a tombstone. */
  async function produce(records: ProducedRecord[]): Promise<void> {
    const lines = records.map(({ key, value }) => `${key}:${value ?? ''}\n`);
    await kcat(
      broker,
      ['-P', '-t', TOPIC, '-p', '0', '-K', ':', '-Z', '-X', 'batch.num.messages=5'],
      lines.join(''),
    );
    produced.push(...records);
  }

  let fillersMade = 0;

  /** Records with keys nobody writes again: they only fill segments so that older ones close. */
  function fillers(count: number): ProducedRecord[] {
    return Array.from({ length: count }, () => {
      const id = fillersMade++;
      return { key: `filler-${id}`, value: `filler-value-${id}-${'x'.repeat(40)}` };
    });
  }

  /** The offset of each key's latest produced record. */
  function latestOffsets(): Map<string, number> {
    return new Map(produced.map((record, offset) => [record.key, offset]));
  }

  /**
   * Checks what kcat read against what was produced: each record is the one produced at its
   * offset, and each key that is still there ends with its latest produced record.
   */
  function expectConsistent(records: KcatRecord[]): void {
    for (const record of records) {
      expect(record).toEqual({ offset: record.offset, ...produced[record.offset]! });
    }
    const lastSeen = new Map(records.map((record) => [record.key, record.offset]));
    for (const [key, offset] of lastSeen) expect(offset).toBe(latestOffsets().get(key));
  }

  function ofKey(records: KcatRecord[], key: string): KcatRecord[] {
    return records.filter((record) => record.key === key);
  }

  beforeAll(async () => {
    broker = await startBroker({
      log: { cleaner: { backoffMs: 100 } },
      groups: { initialRebalanceDelayMs: 0 },
    });
    client = new Client({ bootstrapServers: [broker.bootstrap] });
    await createCompactedTopic(client, TOPIC, { 'delete.retention.ms': DAY_MS });
    await produce(
      Array.from({ length: KEYS * ROUNDS }, (_, index) => ({
        key: `key-${index % KEYS}`,
        value: `value-${index}`,
      })),
    );
    await produce(DELETED.map((key) => ({ key, value: null })));
    // The tombstones' segment must close before any clean can reach it.
    await produce(fillers(40));
  });
  afterAll(async () => {
    await client?.close();
    await broker?.dispose();
  });

  it('keeps a tombstone, read as a null value, and removes the values it deletes', async () => {
    const tombstoneOffsets = DELETED.map((key) => latestOffsets().get(key)!);
    const records = await pollUntil(async () => {
      const seen = await kcatRecords(broker, TOPIC, 0);
      return DELETED.every((key) => ofKey(seen, key).length === 1) ? seen : undefined;
    }, 'the cleaner to remove the deleted keys’ values');
    expectConsistent(records);
    for (const [index, key] of DELETED.entries()) {
      expect(ofKey(records, key)).toEqual([{ offset: tombstoneOffsets[index], key, value: null }]);
    }
    // kcat's %S is the value's length, -1 for a null value, as the broker stored it.
    const lengths = await kcat(broker, [
      '-C',
      '-t',
      TOPIC,
      '-p',
      '0',
      '-o',
      String(tombstoneOffsets[0]),
      '-c',
      '1',
      '-f',
      '%o %k %S\\n',
    ]);
    expect(lengths).toBe(`${tombstoneOffsets[0]} key-1 -1\n`);

    // kafkajs reads the same records, the tombstones with a null value.
    const kafka = new Kafka({
      clientId: 'tombstones',
      brokers: [broker.bootstrap],
      logLevel: logLevel.NOTHING,
    });
    const seen = await kafkajsRecordsTo(kafka, TOPIC, records.at(-1)!.offset, {
      groupId: 'tombstone-reader',
    });
    // A later clean may have removed more meanwhile, but never a tombstone within delete.retention.ms.
    expectConsistent(seen);
    for (const [index, key] of DELETED.entries()) {
      expect(ofKey(seen, key)).toEqual([{ offset: tombstoneOffsets[index], key, value: null }]);
    }
  });

  it('keeps the tombstones through later cleans while delete.retention.ms has not passed', async () => {
    const supersededOffset = latestOffsets().get('key-0')!;
    await produce([{ key: 'key-0', value: `value-${produced.length}` }, ...fillers(40)]);
    // A clean that removes key-0's previous value has seen the tombstones' segment as clean already.
    const records = await pollUntil(async () => {
      const seen = await kcatRecords(broker, TOPIC, 0);
      return seen.some((record) => record.offset === supersededOffset) ? undefined : seen;
    }, 'a later clean to remove key-0’s previous value');
    expectConsistent(records);
    for (const key of DELETED) {
      expect(ofKey(records, key)).toEqual([{ offset: latestOffsets().get(key), key, value: null }]);
    }
  });

  it('removes the tombstones at the next clean once delete.retention.ms is lowered', async () => {
    const before = await kcatRecords(broker, TOPIC, 0);
    await new Admin(client).incrementalAlterConfigs([
      {
        type: 'topic',
        name: TOPIC,
        changes: [{ name: 'delete.retention.ms', operation: 'set', value: '0' }],
      },
    ]);
    // Nothing is dirty until new segments close, so no clean would be due without them.
    await produce(fillers(40));
    const records = await pollUntil(async () => {
      const seen = await kcatRecords(broker, TOPIC, 0);
      return DELETED.every((key) => ofKey(seen, key).length === 0) ? seen : undefined;
    }, 'the cleaner to remove the tombstones');
    expectConsistent(records);
    // Every other record that was there is still there, at its offset: only the tombstones went.
    const left = new Set(records.map((record) => record.offset));
    expect(before.filter((record) => !left.has(record.offset)).map((record) => record.key)).toEqual(DELETED);
    for (const [key, offset] of latestOffsets()) {
      if (!DELETED.includes(key)) expect(left.has(offset)).toBe(true);
    }
    expect(await kcatEndOffset(broker, TOPIC, 0)).toBe(produced.length);
  });
});
