import { ErrorCode } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import { registrationFor } from '../../test/replica-fixtures';
import { OFFSETS_TOPIC } from '../group/offsets-topic';
import { ClusterView } from '../metadata/cluster-view';
import type { PartitionAssignment, PlacementChange } from '../metadata/metadata-store';
import { TRANSACTION_STATE_TOPIC } from '../txn/transaction-log';
import { CoordinatorLocator } from './coordinator-locator';
import { partitionForKey } from './partition-for-key';

const PARTITIONS = 4;

function internalTopic(name: string): PlacementChange {
  return {
    kind: 'topic',
    name,
    topic: { name, topicId: name, partitionCount: PARTITIONS, configs: {}, internal: true, createdAtMs: 0 },
  };
}

function assignment(topic: string, partition: number, leader: number, leaderEpoch = 0): PlacementChange {
  const placed: PartitionAssignment = {
    topic,
    partition,
    replicas: [1, 2],
    leader,
    leaderEpoch,
    isr: [1, 2],
    version: leaderEpoch,
  };
  return { kind: 'assignment', topic, partition, assignment: placed };
}

/** A two-broker cluster's image: broker 1 leads every internal partition, broker 2 none. */
function twoBrokerView(): { view: ClusterView; apply: (...changes: PlacementChange[]) => void } {
  const view = new ClusterView(1);
  let revision = 0;
  const apply = (...changes: PlacementChange[]) => view.apply(changes, ++revision);
  const broker2 = registrationFor(2);
  apply(
    { kind: 'broker', brokerId: 1, broker: registrationFor(1) },
    {
      kind: 'broker',
      brokerId: 2,
      broker: {
        ...broker2,
        listeners: { client: { host: '127.0.0.2', port: 9092 }, internal: { host: '127.0.0.2', port: 9093 } },
      },
    },
    internalTopic(OFFSETS_TOPIC),
    ...Array.from({ length: PARTITIONS }, (_, partition) => assignment(OFFSETS_TOPIC, partition, 1)),
  );
  return { view, apply };
}

describe('CoordinatorLocator (FindCoordinator)', () => {
  it("answers the leader of the key's partition, and follows the partition when it moves", async () => {
    const { view, apply } = twoBrokerView();
    const locator = new CoordinatorLocator(view, { transaction: async () => {}, group: async () => {} });
    const partition = partitionForKey('orders-app', PARTITIONS);
    expect(await locator.findCoordinator(0, 'orders-app', 'client')).toEqual({
      nodeId: 1,
      host: '127.0.0.1',
      port: 9092,
      rack: null,
    });
    apply(assignment(OFFSETS_TOPIC, partition, 2, 1));
    expect(await locator.findCoordinator(0, 'orders-app', 'client')).toMatchObject({
      nodeId: 2,
      host: '127.0.0.2',
    });
    expect(await locator.findCoordinator(0, 'orders-app', 'internal')).toMatchObject({
      nodeId: 2,
      port: 9093,
    });
    // A group on another partition stays where it was.
    const other = ['a', 'b', 'c', 'd', 'e', 'f'].find(
      (key) => partitionForKey(key, PARTITIONS) !== partition,
    )!;
    expect(await locator.findCoordinator(0, other, 'client')).toMatchObject({ nodeId: 1 });
  });

  it('answers COORDINATOR_NOT_AVAILABLE while the partition has no live leader', async () => {
    const { view, apply } = twoBrokerView();
    const locator = new CoordinatorLocator(view, { transaction: async () => {}, group: async () => {} });
    const partition = partitionForKey('g', PARTITIONS);
    apply(assignment(OFFSETS_TOPIC, partition, -1, 1));
    await expect(locator.findCoordinator(0, 'g', 'client')).rejects.toMatchObject({
      code: ErrorCode.COORDINATOR_NOT_AVAILABLE,
    });
    apply(assignment(OFFSETS_TOPIC, partition, 2, 2), { kind: 'broker', brokerId: 2, broker: undefined });
    await expect(locator.findCoordinator(0, 'g', 'client')).rejects.toMatchObject({
      code: ErrorCode.COORDINATOR_NOT_AVAILABLE,
    });
    await expect(locator.findCoordinator(7, 'g', 'client')).rejects.toMatchObject({
      code: ErrorCode.INVALID_REQUEST,
    });
  });

  it('creates __transaction_state on the first transactional lookup, and only then', async () => {
    const { view, apply } = twoBrokerView();
    let creations = 0;
    const locator = new CoordinatorLocator(view, {
      group: async () => {},
      transaction: async () => {
        creations += 1;
        apply(
          internalTopic(TRANSACTION_STATE_TOPIC),
          ...Array.from({ length: PARTITIONS }, (_, partition) =>
            assignment(TRANSACTION_STATE_TOPIC, partition, 2),
          ),
        );
      },
    });
    expect(await locator.findCoordinator(1, 'tx', 'client')).toMatchObject({ nodeId: 2 });
    expect(await locator.findCoordinator(1, 'tx-2', 'client')).toMatchObject({ nodeId: 2 });
    expect(creations).toBe(1);
  });
});
