import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CreateTopics,
  ErrorCode,
  Fetch,
  ListOffsets,
  Metadata,
  OffsetForLeaderEpoch,
  type RequestOf,
  ZERO_UUID,
} from '@weir/protocol';
import {
  type RunningBroker,
  startBroker,
  type TemporaryDirectory,
  temporaryDirectory,
} from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEADER_EPOCH_CHECKPOINT_FILE } from '../src/log/leader-epoch-checkpoint';
import { createStorageIo } from '../src/log/storage';
import { LocalMetadataStore } from '../src/metadata/local-metadata-store';
import { leaderEpochsOf } from './log-reads';
import { fetchBody, produceValues, RawConnection, rawFrame, rawRequestHeader } from './raw-socket';

/*
 * Leader epochs on the wire, against a real broker whose partition a controller moved through
 * epochs 0, 2 and 5 (here: the local metadata store, changed while the broker is stopped, as a
 * controller's election would change it): Metadata v7–8, Fetch v9–11 and ListOffsets v4–5 check
 * the client's current_leader_epoch, and OffsetForLeaderEpoch v0–3 answers from the partition's
 * leader-epoch checkpoint, which survives restarts and is rebuilt when deleted.
 */

const TOPIC = 'ledger';
/** A topic whose leadership moves to another broker (7) at epoch 1, leaving a follower here. */
const MOVED = 'moved';
const ANOTHER_BROKER = 7;
const OPTIONS = { topics: { autoCreateEnable: false }, shutdownTimeoutMs: 2_000 };

let directory: TemporaryDirectory;
let broker: RunningBroker;

/**
 * Moves the partitions to new leader epochs (and `MOVED` to another leader) in the stopped broker's
 * metadata, as an election would.
 */
async function electAt(leaderEpoch: number, moveAway = false): Promise<void> {
  await broker.stop();
  const store = new LocalMetadataStore(createStorageIo(), directory.path, { brokerId: 0 });
  await store.load();
  const assignments = store.snapshot().assignments;
  const current = assignments.find((entry) => entry.topic === TOPIC)!;
  await store.compareAndSetAssignment({ ...current, leaderEpoch });
  if (moveAway) {
    const moved = assignments.find((entry) => entry.topic === MOVED)!;
    const replicas = [0, ANOTHER_BROKER];
    await store.compareAndSetAssignment({
      ...moved,
      leader: ANOTHER_BROKER,
      leaderEpoch: 1,
      replicas,
      isr: replicas,
    });
  }
  broker = await startBroker(OPTIONS, directory.path);
}

async function withConnection<T>(run: (connection: RawConnection) => Promise<T>): Promise<T> {
  const connection = await RawConnection.open(broker.port);
  try {
    return await run(connection);
  } finally {
    await connection.destroy();
  }
}

function offsetForLeaderEpoch(
  partitions: { leaderEpoch: number; currentLeaderEpoch?: number; partition?: number }[],
  topic = TOPIC,
): RequestOf<typeof OffsetForLeaderEpoch> {
  return {
    replicaId: -1,
    topics: [
      {
        topic,
        partitions: partitions.map((entry) => ({
          partition: entry.partition ?? 0,
          currentLeaderEpoch: entry.currentLeaderEpoch ?? -1,
          leaderEpoch: entry.leaderEpoch,
        })),
      },
    ],
  };
}

function listOffsets(timestamp: bigint, currentLeaderEpoch: number): RequestOf<typeof ListOffsets> {
  return {
    replicaId: -1,
    isolationLevel: 0,
    topics: [
      { name: TOPIC, partitions: [{ partitionIndex: 0, currentLeaderEpoch, timestamp, maxNumOffsets: 1 }] },
    ],
  };
}

function fetchAt(currentLeaderEpoch: number): RequestOf<typeof Fetch> {
  const body = fetchBody(TOPIC, 0, 0n);
  body.topics[0]!.partitions[0]!.currentLeaderEpoch = currentLeaderEpoch;
  return body;
}

beforeAll(async () => {
  directory = await temporaryDirectory('weir-leader-epochs-');
  broker = await startBroker(OPTIONS, directory.path);
  await withConnection(async (connection) => {
    const created = await connection.request(CreateTopics, 4, {
      topics: [TOPIC, MOVED].map((name) => ({
        name,
        numPartitions: 1,
        replicationFactor: 1,
        assignments: [],
        configs: [],
      })),
      timeoutMs: 10_000,
      validateOnly: false,
    });
    expect(created.topics.map((topic) => topic.errorCode)).toEqual([0, 0]);
    expect((await produceValues(connection, TOPIC, 0, ['a', 'b'])).errorCode).toBe(0); // 0..1 at epoch 0
    expect((await produceValues(connection, MOVED, 0, ['x'])).errorCode).toBe(0);
  });
  await electAt(2);
  await withConnection(async (connection) => {
    expect((await produceValues(connection, TOPIC, 0, ['c', 'd'])).errorCode).toBe(0); // 2..3 at epoch 2
  });
  await electAt(5, true);
  await withConnection(async (connection) => {
    expect((await produceValues(connection, TOPIC, 0, ['e'])).errorCode).toBe(0); // 4 at epoch 5
  });
}, 60_000);

afterAll(async () => {
  await broker?.stop();
  await directory?.cleanup();
});

describe('leader epochs on the wire', { timeout: 30_000 }, () => {
  it('serves the leader epoch in Metadata v7 and v8, and v8 authorized operations when asked', async () => {
    await withConnection(async (connection) => {
      const asked = { topics: [{ topicId: ZERO_UUID, name: TOPIC }], allowAutoTopicCreation: false };
      const v7 = await connection.request(Metadata, 7, {
        ...asked,
        includeClusterAuthorizedOperations: false,
        includeTopicAuthorizedOperations: false,
      });
      expect(v7.topics[0]!.partitions[0]).toMatchObject({ errorCode: 0, leaderId: 0, leaderEpoch: 5 });
      const notAsked = await connection.request(Metadata, 8, {
        ...asked,
        includeClusterAuthorizedOperations: false,
        includeTopicAuthorizedOperations: false,
      });
      expect(notAsked.topics[0]!.topicAuthorizedOperations).toBe(-2147483648);
      expect(notAsked.clusterAuthorizedOperations).toBe(-2147483648);
      const v8 = await connection.request(Metadata, 8, {
        ...asked,
        includeClusterAuthorizedOperations: true,
        includeTopicAuthorizedOperations: true,
      });
      // Without an authorizer everything is allowed. Topic: READ(3), WRITE, CREATE, DELETE, ALTER,
      // DESCRIBE(8), DESCRIBE_CONFIGS(10), ALTER_CONFIGS(11); cluster: CREATE(5), ALTER(7) to
      // IDEMPOTENT_WRITE(12) (Kafka's operation ids).
      expect(v8.topics[0]!.topicAuthorizedOperations).toBe(0b1101_1111_1000);
      expect(v8.clusterAuthorizedOperations).toBe(0b1_1111_1010_0000);
      expect(v8.topics[0]!.partitions[0]!.leaderEpoch).toBe(5);
    });
  });

  it('stamps each batch with the epoch its leader wrote it under', async () => {
    await withConnection(async (connection) => {
      const fetched = await connection.request(Fetch, 11, fetchAt(5));
      const answer = fetched.responses[0]!.partitions[0]!;
      expect(answer.errorCode).toBe(0);
      expect(leaderEpochsOf(answer.records!)).toEqual([
        { baseOffset: 0, leaderEpoch: 0 },
        { baseOffset: 2, leaderEpoch: 2 },
        { baseOffset: 4, leaderEpoch: 5 },
      ]);
    });
  });

  it('answers OffsetForLeaderEpoch v0-3 across the epochs', async () => {
    await withConnection(async (connection) => {
      const epochs = [0, 1, 2, 3, 5, 6, -1].map((leaderEpoch) => ({ leaderEpoch }));
      const v3 = await connection.request(OffsetForLeaderEpoch, 3, offsetForLeaderEpoch(epochs));
      expect(
        v3.topics[0]!.partitions.map(({ leaderEpoch, endOffset, errorCode }) => [
          errorCode,
          leaderEpoch,
          endOffset,
        ]),
      ).toEqual([
        [0, 0, 2n],
        [0, 0, 2n],
        [0, 2, 4n],
        [0, 2, 4n],
        [0, 5, 5n],
        [0, -1, -1n],
        [0, -1, -1n],
      ]);
      // v0 carries only the end offset; v1 adds the epoch the answer is for.
      const v0 = await connection.request(
        OffsetForLeaderEpoch,
        0,
        offsetForLeaderEpoch([{ leaderEpoch: 3 }]),
      );
      expect(v0.topics[0]!.partitions[0]).toMatchObject({ errorCode: 0, endOffset: 4n });
      const v1 = await connection.request(
        OffsetForLeaderEpoch,
        1,
        offsetForLeaderEpoch([{ leaderEpoch: 3 }]),
      );
      expect(v1.topics[0]!.partitions[0]).toMatchObject({ errorCode: 0, leaderEpoch: 2, endOffset: 4n });
    });
  });

  it('fences an older current_leader_epoch (74) and reports a newer one unknown (75)', async () => {
    await withConnection(async (connection) => {
      const v2 = await connection.request(
        OffsetForLeaderEpoch,
        2,
        offsetForLeaderEpoch([
          { leaderEpoch: 2, currentLeaderEpoch: 4 },
          { leaderEpoch: 2, currentLeaderEpoch: 5 },
          { leaderEpoch: 2, currentLeaderEpoch: 6 },
        ]),
      );
      expect(v2.topics[0]!.partitions.map((entry) => entry.errorCode)).toEqual([
        ErrorCode.FENCED_LEADER_EPOCH,
        ErrorCode.NONE,
        ErrorCode.UNKNOWN_LEADER_EPOCH,
      ]);
      expect(v2.topics[0]!.partitions[0]).toMatchObject({ leaderEpoch: -1, endOffset: -1n });

      const fetchCodes = [];
      for (const epoch of [4, 5, 6, -1]) {
        const response = await connection.request(Fetch, 9, fetchAt(epoch));
        fetchCodes.push(response.responses[0]!.partitions[0]!.errorCode);
      }
      expect(fetchCodes).toEqual([ErrorCode.FENCED_LEADER_EPOCH, 0, ErrorCode.UNKNOWN_LEADER_EPOCH, 0]);

      const listCodes = [];
      for (const [version, epoch] of [
        [4, 4],
        [5, 6],
        [5, -1],
      ] as const) {
        const response = await connection.request(ListOffsets, version, listOffsets(-1n, epoch));
        listCodes.push(response.topics[0]!.partitions[0]!.errorCode);
      }
      expect(listCodes).toEqual([ErrorCode.FENCED_LEADER_EPOCH, ErrorCode.UNKNOWN_LEADER_EPOCH, 0]);
    });
  });

  it('gives ListOffsets v4+ answers the epoch of the offset found', async () => {
    await withConnection(async (connection) => {
      const earliest = await connection.request(ListOffsets, 5, listOffsets(-2n, 5));
      expect(earliest.topics[0]!.partitions[0]).toMatchObject({ errorCode: 0, offset: 0n, leaderEpoch: 0 });
      const latest = await connection.request(ListOffsets, 4, listOffsets(-1n, 5));
      expect(latest.topics[0]!.partitions[0]).toMatchObject({ errorCode: 0, offset: 5n, leaderEpoch: 5 });
    });
  });

  it('answers UNKNOWN_TOPIC_OR_PARTITION for a topic or partition that does not exist', async () => {
    await withConnection(async (connection) => {
      const missingTopic = await connection.request(
        OffsetForLeaderEpoch,
        3,
        offsetForLeaderEpoch([{ leaderEpoch: 0 }], 'nowhere'),
      );
      const missingPartition = await connection.request(
        OffsetForLeaderEpoch,
        3,
        offsetForLeaderEpoch([{ leaderEpoch: 0, partition: 9 }]),
      );
      for (const response of [missingTopic, missingPartition]) {
        expect(response.topics[0]!.partitions[0]).toMatchObject({
          errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
          leaderEpoch: -1,
          endOffset: -1n,
        });
      }
    });
  });

  it('answers NOT_LEADER_OR_FOLLOWER where this broker follows, unless asked as a debugging replica', async () => {
    await withConnection(async (connection) => {
      for (const version of [0, 1, 2]) {
        // Below v3 the replica id is implicitly -2 (debugging): a follower's log answers.
        const debugging = await connection.request(
          OffsetForLeaderEpoch,
          version,
          offsetForLeaderEpoch([{ leaderEpoch: 0 }], MOVED),
        );
        expect(debugging.topics[0]!.partitions[0]).toMatchObject({ errorCode: 0, endOffset: 1n });
      }
      const consumer = await connection.request(
        OffsetForLeaderEpoch,
        3,
        offsetForLeaderEpoch([{ leaderEpoch: 0 }], MOVED),
      );
      expect(consumer.topics[0]!.partitions[0]).toMatchObject({
        errorCode: ErrorCode.NOT_LEADER_OR_FOLLOWER,
        leaderEpoch: -1,
        endOffset: -1n,
      });
    });
  });

  it('closes only the connection that sends a cut-short OffsetForLeaderEpoch, and keeps serving', async () => {
    await withConnection(async (connection) => {
      // v3: the replica id, then a topic array announcing 2 topics with nothing behind it.
      const body = Buffer.alloc(8);
      body.writeInt32BE(-1, 0);
      body.writeInt32BE(2, 4);
      await connection.write(rawFrame(Buffer.concat([rawRequestHeader(23, 3, 1, 'bad'), body])));
      await connection.closed();
    });
    await withConnection(async (connection) => {
      const answer = await connection.request(
        OffsetForLeaderEpoch,
        3,
        offsetForLeaderEpoch([{ leaderEpoch: 5 }]),
      );
      expect(answer.topics[0]!.partitions[0]).toMatchObject({ errorCode: 0, leaderEpoch: 5, endOffset: 5n });
    });
  });

  it('keeps the checkpoint across restarts and rebuilds it from the batches when deleted', async () => {
    const path = join(directory.path, 'logs', `${TOPIC}-0`, LEADER_EPOCH_CHECKPOINT_FILE);
    await broker.stop();
    expect(await readFile(path, 'utf8')).toBe('0\n3\n0 0\n2 2\n5 4\n');
    await rm(path);
    broker = await startBroker(OPTIONS, directory.path);
    expect(await readFile(path, 'utf8')).toBe('0\n3\n0 0\n2 2\n5 4\n');
    await withConnection(async (connection) => {
      const answer = await connection.request(
        OffsetForLeaderEpoch,
        3,
        offsetForLeaderEpoch([{ leaderEpoch: 1 }]),
      );
      expect(answer.topics[0]!.partitions[0]).toMatchObject({ errorCode: 0, leaderEpoch: 0, endOffset: 2n });
    });
  });
});
