import { type RunningBroker, startBroker } from '@weir/test-broker';
import { type Admin, Kafka, logLevel, type Producer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BURROW_MISSING_REASON,
  type BurrowGroupStatus,
  type RunningBurrow,
  startBurrow,
} from './burrow-process';
import { requestCounts, requestsSent } from './go-clients';
import { pollUntil } from './group-fixtures';
import { type RunningZooKeeper, startZooKeeper, ZOOKEEPER_MISSING_REASON } from './zookeeper-process';

const CLUSTER = 'weir';
const TOPIC = 'burrow-orders';
const GROUP = 'burrow-billing';
/** Records produced into each partition at first: different counts, so a swapped partition shows. */
const PRODUCED = [12, 20, 7];
/** The group's first commit per partition. */
const FIRST_COMMIT = [5, 0, 7];
/** Its second commit: partition 0 catches up all the way, partition 1 part of the way. */
const SECOND_COMMIT = [12, 15, 7];
/** Records produced into each partition after the second commit, which only the log end offsets show. */
const PRODUCED_LATER = [3, 0, 4];
/** Burrow picks up a commit or a log end offset within about a second; a loaded machine is slower. */
const BURROW_WAIT_MS = 60_000;

const MISSING_REASON = BURROW_MISSING_REASON ?? ZOOKEEPER_MISSING_REASON;

/**
 * The client profiles run, each with the Metadata, ListOffsets and Fetch versions Burrow sends at
 * it: Burrow's default (no kafka-version, Sarama's 0.8.2 protocol: Fetch v0 with magic 0 messages),
 * the package's example config (0.10.0: Fetch v2 with magic 1) and the newest version Burrow 1.2.1
 * knows (2.1.0: Fetch v4 with RecordBatch v2). Its cluster module asks for log end offsets with
 * ListOffsets v0 at every version; Sarama's partition consumers ask for their start with v1 from
 * 0.10.1 on.
 */
const PROFILES = [
  { label: 'unset (0.8)', kafkaVersion: undefined, sent: ['Fetch v0', 'ListOffsets v0', 'Metadata v0'] },
  { label: '0.10.0', kafkaVersion: '0.10.0', sent: ['Fetch v2', 'ListOffsets v0', 'Metadata v1'] },
  {
    label: '2.1.0',
    kafkaVersion: '2.1.0',
    sent: ['Fetch v4', 'ListOffsets v0', 'ListOffsets v1', 'Metadata v5'],
  },
];

describe.skipIf(MISSING_REASON !== undefined).each(PROFILES)(
  `Burrow 1.2.1 with kafka-version $label reports a group's lag over its HTTP API${MISSING_REASON ? ` (${MISSING_REASON})` : ''}`,
  ({ kafkaVersion, sent }) => {
    let zookeeper: RunningZooKeeper;
    let broker: RunningBroker;
    let admin: Admin;
    let producer: Producer;
    let burrow: RunningBurrow;
    let beforeBurrow: Map<string, number>;
    let firstCommitWindow: { fromMs: number; toMs: number };

    beforeAll(async () => {
      zookeeper = await startZooKeeper();
      broker = await startBroker({
        groups: {
          // kafkajs's setOffsets joins the group with a throwaway consumer; no reason to wait 3 s.
          initialRebalanceDelayMs: 0,
          // Sarama starts one partition consumer after another, and each first waits out the
          // previous Fetch's long poll (250 ms) on the shared connection, as it would with Kafka:
          // with Kafka's 50 partitions Burrow reads the offsets topic after about 11 s, with 5
          // after about 1 s.
          offsetsTopicPartitions: 5,
        },
      });
      const kafka = new Kafka({ brokers: [broker.bootstrap], logLevel: logLevel.NOTHING });
      admin = kafka.admin();
      await admin.connect();
      await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: PRODUCED.length }] });
      producer = kafka.producer();
      await producer.connect();
      await produce(producer, PRODUCED);
      // Committed before Burrow starts, so Burrow has to find it by reading the offsets topic
      // from its start, as it does after every restart.
      firstCommitWindow = await commit(admin, FIRST_COMMIT);
      beforeBurrow = await requestCounts(broker);
      burrow = await startBurrow({
        clusterName: CLUSTER,
        bootstrap: broker.bootstrap,
        zookeeper: zookeeper.address,
        kafkaVersion,
      });
    }, 120_000);

    afterAll(async () => {
      await burrow?.stop();
      await producer?.disconnect();
      await admin?.disconnect();
      await broker?.dispose();
      await zookeeper?.stop();
    });

    it('reports the lag of every partition from the commit it read in __consumer_offsets', async () => {
      const status = await lagReported(burrow, FIRST_COMMIT, PRODUCED);
      expect(status).toMatchObject({ cluster: CLUSTER, group: GROUP, partition_count: PRODUCED.length });
      expect(status.totallag).toBe(7 + 20 + 0);
      // The commit time comes from the record's value (after the offset, leader epoch and
      // metadata in OffsetCommitValue v3), so a misplaced field shows here.
      for (const partition of status.partitions) {
        expect(partition.end!.timestamp).toBeGreaterThanOrEqual(firstCommitWindow.fromMs);
        expect(partition.end!.timestamp).toBeLessThanOrEqual(firstCommitWindow.toMs);
      }
    }, 90_000);

    it('follows a new commit', async () => {
      await commit(admin, SECOND_COMMIT);
      const status = await lagReported(burrow, SECOND_COMMIT, PRODUCED);
      expect(status.totallag).toBe(0 + 5 + 0);
    }, 90_000);

    it('follows the log end offsets, which it reads with ListOffsets', async () => {
      await produce(producer, PRODUCED_LATER);
      const ends = PRODUCED.map((count, partition) => count + PRODUCED_LATER[partition]!);
      const status = await lagReported(burrow, SECOND_COMMIT, ends);
      expect(status.totallag).toBe(3 + 5 + 4);
    }, 90_000);

    it("reads with its profile's protocol versions", async () => {
      // Metadata v6 is kafkajs's (the producer and setOffsets); Burrow sends nothing else of these.
      const readRequests = requestsSent(beforeBurrow, await requestCounts(broker)).filter(
        (request) => /^(Fetch|ListOffsets|Metadata) v/.test(request) && request !== 'Metadata v6',
      );
      expect(readRequests).toEqual(sent);
    });

    it('decoded every committed-offset record and logged no other warning', () => {
      // Burrow 1.2.1 decodes GroupMetadataValue only up to v1 and warns about the v3 that Kafka 3.9
      // (and Weir) write; that costs it the partitions' owners (which it shows as ""), not the lag.
      // Any other warning, about an offset record above all, would be one it has with Weir only.
      // It also warns when asked for a group it has not read yet, which the polls above do.
      const unknownYet = (line: string) => line.includes('"msg":"unknown consumer"');
      const groupMetadataV3 = (line: string) =>
        line.includes('"msg":"failed to decode"') &&
        line.includes('"message_type":"metadata"') &&
        line.includes('"reason":"value version","version":3');
      expect(burrow.warnings().filter((line) => !groupMetadataV3(line) && !unknownYet(line))).toEqual([]);
      expect(burrow.warnings().filter(groupMetadataV3)).not.toEqual([]);
    });
  },
);

async function produce(producer: Producer, counts: readonly number[]): Promise<void> {
  await producer.send({
    topic: TOPIC,
    messages: counts.flatMap((count, partition) =>
      Array.from({ length: count }, (_, index) => ({ partition, value: `order-${partition}-${index}` })),
    ),
  });
}

/** Commits `offsets` (one per partition) for the group; resolves with when it did, in ms. */
async function commit(admin: Admin, offsets: readonly number[]): Promise<{ fromMs: number; toMs: number }> {
  const fromMs = Date.now();
  await admin.setOffsets({
    groupId: GROUP,
    topic: TOPIC,
    partitions: offsets.map((offset, partition) => ({ partition, offset: String(offset) })),
  });
  return { fromMs, toMs: Date.now() };
}

/**
 * Polls Burrow's `/lag` for the group until every partition reports `committed` as its last
 * commit and `ends - committed` as its current lag; fails after {@link BURROW_WAIT_MS} with what
 * Burrow last said and its log.
 */
async function lagReported(
  burrow: RunningBurrow,
  committed: readonly number[],
  ends: readonly number[],
): Promise<BurrowGroupStatus> {
  const expected = committed.map((offset, partition) => ({
    topic: TOPIC,
    partition,
    committed: offset,
    currentLag: ends[partition]! - offset,
  }));
  let last: unknown;
  try {
    return await pollUntil(
      async () => {
        const status = await burrow.groupLag(GROUP);
        const seen = status?.partitions
          .map((partition) => ({
            topic: partition.topic,
            partition: partition.partition,
            committed: partition.end?.offset,
            currentLag: partition.current_lag,
          }))
          .sort((a, b) => a.partition - b.partition);
        last = seen ?? 'the group is unknown to Burrow (404)';
        return JSON.stringify(seen) === JSON.stringify(expected) ? status : undefined;
      },
      `Burrow to report ${JSON.stringify(expected)}`,
      { timeoutMs: BURROW_WAIT_MS, intervalMs: 250 },
    );
  } catch (error) {
    const topics = await burrow.topics().catch((cause: Error) => cause.message);
    throw new Error(
      `${(error as Error).message}\nBurrow last reported: ${JSON.stringify(last)}\n` +
        `Burrow's topics: ${JSON.stringify(topics)}\nBurrow's output:\n${burrow.process.output()}`,
    );
  }
}
