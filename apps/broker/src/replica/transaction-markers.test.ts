import { ErrorCode } from '@weir/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../test/log-fixtures';
import { type ReplicaFixture, startReplicas } from '../../test/replica-fixtures';
import { TransactionMarkers } from './transaction-markers';

/*
 * The partition side of WriteTxnMarkers over real logs: a marker is written where this broker
 * leads, and a partition whose leadership moved to another broker answers NOT_LEADER_OR_FOLLOWER,
 * which the coordinator's routed writer takes as "route again".
 */

const TOPIC = 'marked';
const ANOTHER_BROKER = 7;

let directory: { path: string; cleanup(): Promise<void> };
let fixture: ReplicaFixture;

beforeEach(async () => {
  directory = await temporaryDirectory('weir-markers-');
  fixture = await startReplicas(directory.path);
  await fixture.topics.createTopic({ name: TOPIC, partitionCount: 2, configs: {} });
});

afterEach(async () => {
  await fixture.stop();
  await directory.cleanup();
});

describe('TransactionMarkers', () => {
  it('writes where this broker leads and answers NOT_LEADER_OR_FOLLOWER where it no longer does', async () => {
    const current = fixture.view.assignment(TOPIC, 1)!;
    await fixture.store.compareAndSetAssignment({
      ...current,
      replicas: [0, ANOTHER_BROKER],
      isr: [0, ANOTHER_BROKER],
      leader: ANOTHER_BROKER,
      leaderEpoch: 1,
    });
    await fixture.replicas.whenApplied();
    const markers = new TransactionMarkers(fixture.replicas, { nowMs: () => Date.now() }, (error) => {
      throw error;
    });
    const written = await markers.writeMarkers({
      producerId: 11n,
      producerEpoch: 0,
      result: 'commit',
      coordinatorEpoch: 0,
      partitions: [
        { topic: TOPIC, partition: 0 },
        { topic: TOPIC, partition: 1 },
      ],
    });
    expect(written).toEqual([
      { topic: TOPIC, partition: 0, errorCode: ErrorCode.NONE },
      { topic: TOPIC, partition: 1, errorCode: ErrorCode.NOT_LEADER_OR_FOLLOWER },
    ]);
    expect(fixture.replicas.offsets(TOPIC, 0).logEndOffset).toBe(1);
  });
});
