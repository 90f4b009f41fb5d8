import { ErrorCode, encodeTransactionMarkerBatch } from '@weir/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeBatch, temporaryDirectory } from '../../test/log-fixtures';
import { leaderEpochsOf } from '../../test/log-reads';
import { type ReplicaFixture, startReplicas } from '../../test/replica-fixtures';
import type { PartitionAssignment } from '../metadata/metadata-store';

/*
 * Leader epochs in the replica layer over real logs and the local metadata store: the leader
 * stamps its assignment's epoch into every batch it writes (client, coordinator and marker
 * writes), and answers OffsetForLeaderEpoch and the epochs of ListOffsets from its log's
 * leader-epoch cache, across epochs a controller gives it.
 */

const TOPIC = 'orders';
const ANOTHER_BROKER = 7;

let directory: { path: string; cleanup(): Promise<void> };
let fixture: ReplicaFixture;

function produce(timestampMs = 1_700_000_000_000) {
  return fixture.replicas.appendRecords({
    topic: TOPIC,
    partition: 0,
    records: makeBatch({ count: 2, timestampMs }),
    acks: 1,
    timeoutMs: 5_000,
    transactionalId: null,
  });
}

/** Changes the partition's assignment through the metadata store, as a controller would. */
async function reassign(change: Partial<PartitionAssignment>): Promise<void> {
  const current = fixture.view.assignment(TOPIC, 0)!;
  await fixture.store.compareAndSetAssignment({ ...current, ...change });
  await fixture.replicas.whenApplied();
}

function endOf(leaderEpoch: number, currentLeaderEpoch = -1, leaderOnly = true) {
  return fixture.replicas.endOffsetForLeaderEpoch({
    topic: TOPIC,
    partition: 0,
    leaderEpoch,
    currentLeaderEpoch,
    leaderOnly,
  });
}

async function stampedEpochs() {
  const { records } = await fixture.replicas.readRecords(TOPIC, 0, 0, {
    maxBytes: 1 << 20,
    maxOffset: 1 << 30,
  });
  return leaderEpochsOf(records);
}

beforeEach(async () => {
  directory = await temporaryDirectory('weir-replica-epochs-');
  fixture = await startReplicas(directory.path);
  await fixture.topics.createTopic({ name: TOPIC, partitionCount: 1, configs: {} });
});

afterEach(async () => {
  await fixture.stop();
  await directory.cleanup();
});

describe('leader epochs in the replica layer', () => {
  it('stamps the assignment epoch into client, coordinator and marker batches', async () => {
    await produce(); // 0..1 at epoch 0, the standalone assignment's
    await reassign({ leaderEpoch: 3 });
    await fixture.replicas.appendAsCoordinator(TOPIC, 0, makeBatch(), { leaderEpoch: 3, durable: true }); // 2
    await fixture.replicas.appendTransactionMarker(
      TOPIC,
      0,
      encodeTransactionMarkerBatch({
        producerId: 4n,
        producerEpoch: 0,
        type: 'commit',
        coordinatorEpoch: 0,
        timestampMs: 1_700_000_000_000,
      }),
    ); // 3
    await produce(); // 4..5
    expect(await stampedEpochs()).toEqual([
      { baseOffset: 0, leaderEpoch: 0 },
      { baseOffset: 2, leaderEpoch: 3 },
      { baseOffset: 3, leaderEpoch: 3 },
      { baseOffset: 4, leaderEpoch: 3 },
    ]);
  });

  it('answers where each epoch ends, across the epochs a controller gives it', async () => {
    await produce(); // 0..1 at epoch 0
    await produce(); // 2..3
    await reassign({ leaderEpoch: 2 });
    await produce(); // 4..5 at epoch 2
    await reassign({ leaderEpoch: 5 });
    await produce(); // 6..7 at epoch 5
    await reassign({ leaderEpoch: 6 }); // leads at 6, has not written yet
    expect([0, 1, 2, 3, 4, 5, 6, 7, -1].map((epoch) => endOf(epoch))).toEqual([
      { epoch: 0, endOffset: 4 },
      { epoch: 0, endOffset: 4 }, // never wrote: the largest epoch below it, and where the next one starts
      { epoch: 2, endOffset: 6 },
      { epoch: 2, endOffset: 6 },
      { epoch: 2, endOffset: 6 },
      { epoch: 5, endOffset: 8 }, // the newest that wrote ends at the log end
      { epoch: 6, endOffset: 8 }, // the current epoch too, before its first write
      { epoch: -1, endOffset: -1 }, // above the current epoch: unknown
      { epoch: -1, endOffset: -1 },
    ]);
    await produce(); // 8..9 at epoch 6
    expect(endOf(5)).toEqual({ epoch: 5, endOffset: 8 });
    expect(endOf(6)).toEqual({ epoch: 6, endOffset: 10 });
  });

  it('checks the current leader epoch: older is FENCED_LEADER_EPOCH, newer UNKNOWN_LEADER_EPOCH', async () => {
    await produce();
    await reassign({ leaderEpoch: 4 });
    expect(endOf(0, 4)).toEqual({ epoch: 0, endOffset: 2 });
    expect(() => endOf(0, 3)).toThrow(expect.objectContaining({ code: ErrorCode.FENCED_LEADER_EPOCH }));
    expect(() => endOf(0, 5)).toThrow(expect.objectContaining({ code: ErrorCode.UNKNOWN_LEADER_EPOCH }));
    await expect(
      fixture.replicas.listOffset({ topic: TOPIC, partition: 0, timestampMs: -1, currentLeaderEpoch: 5 }),
    ).rejects.toMatchObject({ code: ErrorCode.UNKNOWN_LEADER_EPOCH });
  });

  it('answers only as the leader, unless the request may be answered by a follower', async () => {
    await produce();
    await reassign({ replicas: [0, ANOTHER_BROKER], isr: [0, ANOTHER_BROKER] });
    await reassign({ leader: ANOTHER_BROKER, leaderEpoch: 1 });
    expect(() => endOf(0)).toThrow(expect.objectContaining({ code: ErrorCode.NOT_LEADER_OR_FOLLOWER }));
    // Kafka's debugging replica id (OffsetForLeaderEpoch v0-2) lets a follower's log answer.
    expect(endOf(0, -1, false)).toEqual({ epoch: 0, endOffset: 2 });
    expect(() => endOf(0, 0, false)).toThrow(
      expect.objectContaining({ code: ErrorCode.FENCED_LEADER_EPOCH }),
    );
    expect(() =>
      fixture.replicas.endOffsetForLeaderEpoch({
        topic: 'missing',
        partition: 0,
        leaderEpoch: 0,
        currentLeaderEpoch: -1,
        leaderOnly: true,
      }),
    ).toThrow(expect.objectContaining({ code: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION }));
  });

  it('gives ListOffsets answers the epoch of the offset found', async () => {
    await produce(1_000); // 0..1 at epoch 0
    await reassign({ leaderEpoch: 2 });
    await produce(2_000); // 2..3 at epoch 2
    await reassign({ leaderEpoch: 3 });
    const at = (timestampMs: number) =>
      fixture.replicas.listOffset({ topic: TOPIC, partition: 0, timestampMs });
    expect(await at(-2)).toEqual({ offset: 0, timestampMs: -1, leaderEpoch: 0 });
    expect(await at(-1)).toEqual({ offset: 4, timestampMs: -1, leaderEpoch: 3 });
    expect(await at(1_500)).toEqual({ offset: 2, timestampMs: 2_000, leaderEpoch: 2 });
    expect(await at(9_000)).toEqual({ offset: -1, timestampMs: -1, leaderEpoch: -1 });
  });
});
