import { Admin, Client } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompactedTopic, kafkajsRecordsTo } from './compaction-fixtures';
import { pollUntil } from './group-fixtures';
import { type KcatRecord, kcatEndOffset, kcatRecords } from './kcat-clients';

/**
 * Committed and aborted transactions on a compacted topic, with kafkajs writing and kcat and
 * kafkajs reading (issue #19). An aborted transaction's records never supersede anything and are
 * all removed by a clean (record-retention.ts, clean-pass.ts: Kafka's LogCleaner rules), so its
 * values, written after the committed ones of the same keys, are gone for read_uncommitted readers
 * too, while read_committed readers see what they saw before the clean, less the committed values
 * that later committed ones superseded, every record at its own offset.
 */

const TOPIC = 'ledger';
const KEYS = 6;
const HOUR_MS = String(60 * 60 * 1000);
const READ_COMMITTED = ['-X', 'isolation.level=read_committed'];
const READ_UNCOMMITTED = ['-X', 'isolation.level=read_uncommitted'];

function keysFrom(first: number, last: number): string[] {
  return Array.from({ length: last - first + 1 }, (_, index) => `key-${first + index}`);
}

/** The last record of each key, in offset order. */
function latestOfEachKey(records: readonly KcatRecord[]): KcatRecord[] {
  const latest = new Map(records.map((record) => [record.key, record]));
  return [...latest.values()].sort((a, b) => a.offset - b.offset);
}

describe('transactions on a compacted topic, with kafkajs, kcat and the cleaner', () => {
  let broker: RunningBroker;
  let client: Client;
  let kafka: Kafka;
  let producer: Producer;
  let readers = 0;
  /** Offset of the last record written, a non-transactional one that no clean removes. */
  let lastOffset: number;

  /** What a kafkajs consumer of the whole partition reads, up to the last record written. */
  async function kafkajsRecords(readUncommitted: boolean): Promise<KcatRecord[]> {
    return kafkajsRecordsTo(kafka, TOPIC, lastOffset, {
      groupId: `ledger-reader-${readers++}`,
      readUncommitted,
    });
  }

  beforeAll(async () => {
    broker = await startBroker({
      log: { cleaner: { backoffMs: 100 } },
      groups: { initialRebalanceDelayMs: 0 },
    });
    client = new Client({ bootstrapServers: [broker.bootstrap] });
    // min.compaction.lag.ms holds the cleaner back until the view before any clean is captured.
    await createCompactedTopic(client, TOPIC, { 'min.compaction.lag.ms': HOUR_MS });
    kafka = new Kafka({ clientId: 'ledger', brokers: [broker.bootstrap], logLevel: logLevel.NOTHING });
    producer = kafka.producer({ transactionalId: 'ledger-writer', maxInFlightRequests: 1, idempotent: true });
    await producer.connect();
    const transaction = async (round: string, keys: string[], end: 'commit' | 'abort') => {
      const open = await producer.transaction();
      await open.send({
        topic: TOPIC,
        messages: keys.map((key) => ({ partition: 0, key, value: `${round}-${key}` })),
      });
      await (end === 'commit' ? open.commit() : open.abort());
    };
    // Each aborted transaction writes keys a committed one wrote before: were its records taken
    // for the keys' latest values, the committed values would go and then the aborted ones too.
    await transaction('committed-1', keysFrom(0, KEYS - 1), 'commit');
    await transaction('aborted-2', keysFrom(0, KEYS - 1), 'abort');
    await transaction('committed-3', keysFrom(0, 2), 'commit');
    await transaction('aborted-4', keysFrom(3, KEYS - 1), 'abort');
    // Non-transactional records close the transactions' segments, so the cleaner may reach them.
    const plain = kafka.producer();
    await plain.connect();
    try {
      for (let send = 0; send < 8; send++) {
        const [written] = await plain.send({
          topic: TOPIC,
          messages: Array.from({ length: 5 }, (_, index) => ({
            partition: 0,
            key: `filler-${send}-${index}`,
            value: `filler-${'x'.repeat(60)}`,
          })),
        });
        lastOffset = Number(written!.baseOffset) + 4;
      }
    } finally {
      await plain.disconnect();
    }
  });
  afterAll(async () => {
    await producer?.disconnect().catch(() => undefined);
    await client?.close();
    await broker?.dispose();
  });

  it('after a clean, both isolation levels read exactly the committed latest values', {
    timeout: 60_000,
  }, async () => {
    const committedBefore = await kcatRecords(broker, TOPIC, 0, READ_COMMITTED);
    const uncommittedBefore = await kcatRecords(broker, TOPIC, 0, READ_UNCOMMITTED);
    const kafkajsBefore = await kafkajsRecords(false);
    // Before any clean, read_uncommitted readers see the aborted values and read_committed do not.
    expect(uncommittedBefore.filter((record) => record.value!.startsWith('aborted-'))).toHaveLength(
      KEYS + KEYS - 3,
    );
    expect(committedBefore.filter((record) => record.value!.startsWith('aborted-'))).toEqual([]);
    expect(committedBefore.filter((record) => record.value!.startsWith('committed-'))).toHaveLength(KEYS + 3);
    expect(kafkajsBefore).toEqual(committedBefore);

    await new Admin(client).incrementalAlterConfigs([
      {
        type: 'topic',
        name: TOPIC,
        changes: [{ name: 'min.compaction.lag.ms', operation: 'set', value: '0' }],
      },
    ]);
    const uncommittedAfter = await pollUntil(async () => {
      const seen = await kcatRecords(broker, TOPIC, 0, READ_UNCOMMITTED);
      return seen.some((record) => record.value!.startsWith('aborted-')) ? undefined : seen;
    }, 'the cleaner to remove the aborted records');

    const committedAfter = await kcatRecords(broker, TOPIC, 0, READ_COMMITTED);
    // The committed view is the one before the clean with only superseded values gone; every key's
    // latest committed value is where it was, and the aborted ones are gone for every reader.
    expect(committedAfter).toEqual(latestOfEachKey(committedBefore));
    expect(uncommittedAfter).toEqual(committedAfter);
    expect(committedAfter.filter((record) => record.key.startsWith('key-'))).toEqual(
      [
        ...keysFrom(3, KEYS - 1).map((key) => `committed-1-${key}`),
        ...keysFrom(0, 2).map((key) => `committed-3-${key}`),
      ].map((value) => committedBefore.find((record) => record.value === value)!),
    );
    expect(await kafkajsRecords(false)).toEqual(committedAfter);
    expect(await kafkajsRecords(true)).toEqual(committedAfter);
    expect(await kcatEndOffset(broker, TOPIC, 0)).toBe(lastOffset + 1);
  });
});
