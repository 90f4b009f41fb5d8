import { type RunningBroker, startBroker } from '@weir/test-broker';
import { type Admin, Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGoProgram, GO_MISSING_REASON, type GoProgram, requestCounts, requestsSent } from './go-clients';
import { RawClient } from './raw-client';
import { storedCodecs, storedRecords } from './stored-batches';

interface KafkaGoMessage {
  offset: number;
  key: string;
  value: string;
  timestampMs: number;
}

/** What clients/go/kafka-go-legacy prints. */
interface KafkaGoRun {
  writtenFromMs: number;
  writtenToMs: number;
  firstOffset: number;
  lastOffset: number;
  read: KafkaGoMessage[];
  lagAfterRead: number;
  groupRead: KafkaGoMessage[];
}

const CODECS = ['none', 'gzip', 'snappy', 'lz4'] as const;
const COUNT = 50;

/**
 * kafka-go 0.2's one version of each API it sends (clients/go/kafka-go-legacy/main.go; its
 * LeaveGroup v0 never goes out).
 */
const KAFKA_GO_REQUESTS = [
  'Fetch v2',
  'FindCoordinator v0',
  'Heartbeat v0',
  'JoinGroup v1',
  'ListOffsets v1',
  'Metadata v1',
  'OffsetCommit v2',
  'OffsetFetch v1',
  'Produce v2',
  'SyncGroup v0',
];

/**
 * Issue 20, judged by Debian's segmentio/kafka-go 0.2.1 with its defaults: it sends Produce v2
 * and Fetch v2 with magic 1 messages and nothing newer, so before the broker served those
 * versions it closed kafka-go's connection at its first Produce or Fetch (kafka-go has no version
 * negotiation to fall back with). Each codec is one run of the program: a Writer, a partition
 * Reader and a consumer group Reader. The runs go in parallel, as most of their time is the
 * Readers' default 10 s MaxWait for their 1 MB MinBytes.
 */
describe.skipIf(GO_MISSING_REASON !== undefined)(
  `kafka-go 0.2 with its defaults (magic 1)${GO_MISSING_REASON ? ` (${GO_MISSING_REASON})` : ''}`,
  () => {
    let program: GoProgram;
    let broker: RunningBroker;
    let raw: RawClient;
    let admin: Admin;
    const runs = new Map<string, KafkaGoRun>();
    let sent: string[];

    beforeAll(async () => {
      program = await buildGoProgram('kafka-go-legacy');
      broker = await startBroker();
      raw = await RawClient.connect(broker.bootstrap);
      admin = new Kafka({ brokers: [broker.bootstrap], logLevel: logLevel.NOTHING }).admin();
      await admin.connect();
      await admin.createTopics({
        topics: CODECS.map((codec) => ({ topic: `kafka-go-${codec}`, numPartitions: 1 })),
      });
      const before = await requestCounts(broker);
      // Settled, not all: a failed run must not leave the others running past afterAll.
      const settled = await Promise.allSettled(
        CODECS.map(async (codec) => {
          const output = await program.run(
            [broker.bootstrap, `kafka-go-${codec}`, `kafka-go-${codec}-group`, codec, String(COUNT)],
            150_000,
          );
          runs.set(codec, JSON.parse(output) as KafkaGoRun);
        }),
      );
      for (const outcome of settled) if (outcome.status === 'rejected') throw outcome.reason;
      sent = requestsSent(before, await requestCounts(broker));
    }, 300_000);

    afterAll(async () => {
      await admin?.disconnect();
      await raw?.close();
      await broker?.dispose();
      await program?.cleanup();
    });

    it('sends only its fixed old versions (Produce v2 and Fetch v2 among them)', () => {
      // Heartbeat v0 goes out every 3 s while a group Reader waits, so a quick run may send none.
      const required = KAFKA_GO_REQUESTS.filter((request) => request !== 'Heartbeat v0');
      expect(sent).toEqual(expect.arrayContaining(required));
      expect(sent.filter((request) => !KAFKA_GO_REQUESTS.includes(request))).toEqual([]);
    });

    describe.each(CODECS)('with codec %s', (codec) => {
      const topic = `kafka-go-${codec}`;
      const expected = Array.from({ length: COUNT }, (_, offset) => ({
        offset,
        key: `key-${offset % 5}`,
        value: `kafka-go value ${offset}`,
      }));

      it('writes with a Writer, and a partition Reader reads every message at its offset', () => {
        const run = runs.get(codec)!;
        expect({ first: run.firstOffset, last: run.lastOffset }).toEqual({ first: 0, last: COUNT });
        expect(run.read.map(({ offset, key, value }) => ({ offset, key, value }))).toEqual(expected);
        // Magic 1 carries the Writer's timestamps through the stored batch and back.
        for (const { timestampMs } of run.read) {
          expect(timestampMs).toBeGreaterThanOrEqual(run.writtenFromMs);
          expect(timestampMs).toBeLessThanOrEqual(run.writtenToMs);
        }
        expect(run.lagAfterRead).toBe(0);
      });

      it('stores the messages as RecordBatch v2 with the Writer codec and timestamps', async () => {
        const run = runs.get(codec)!;
        expect(await storedRecords(raw, topic, 0)).toEqual(
          run.read.map(({ offset, key, value, timestampMs }) => ({ offset, key, value, timestampMs })),
        );
        expect(new Set(await storedCodecs(raw, topic, 0))).toEqual(new Set([codec]));
      });

      it('reads the same messages as a consumer group member and commits them', async () => {
        const run = runs.get(codec)!;
        expect(run.groupRead).toEqual(run.read);
        const [committed] = await admin.fetchOffsets({ groupId: `${topic}-group`, topics: [topic] });
        expect(committed!.partitions).toEqual([
          expect.objectContaining({ partition: 0, offset: String(COUNT) }),
        ]);
      });
    });
  },
);
