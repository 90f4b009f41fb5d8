import { ListPartitionReassignments } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientSession, internalSession } from './internal-fixtures';

/**
 * ListPartitionReassignments v0 on the internal listener of a real standalone broker: with no move
 * in progress, every form of the request answers no error and no rows, including named partitions
 * that do not exist (Kafka's controller leaves those out). Its denial is in acl-matrix.test.ts.
 */
describe('ListPartitionReassignments', () => {
  let running: RunningBroker;

  beforeAll(async () => {
    running = await startBroker({ topics: { autoCreateEnable: false } });
    const { client, admin } = clientSession(running);
    try {
      await admin.createTopics([{ name: 'idle', partitions: 2, replicationFactor: 1 }]);
    } finally {
      await client.close();
    }
  });

  afterAll(async () => {
    await running?.dispose();
  });

  it('lists nothing for every partition, named ones and unknown ones while nothing moves', async () => {
    const session = internalSession(running);
    try {
      for (const topics of [
        null,
        [{ name: 'idle', partitionIndexes: [0, 1] }],
        [{ name: 'missing', partitionIndexes: [0] }],
        [{ name: 'idle', partitionIndexes: [7] }],
      ]) {
        const response = await session.client.send('any', ListPartitionReassignments, {
          timeoutMs: 1000,
          topics,
        });
        expect(response).toEqual({ throttleTimeMs: 0, errorCode: 0, errorMessage: null, topics: [] });
      }
    } finally {
      await session.close();
    }
  });
});
