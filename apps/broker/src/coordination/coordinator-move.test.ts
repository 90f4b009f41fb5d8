import { ErrorCode } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import { ManualScheduler, MemoryGroupStore, TEST_GROUP_CONFIG } from '../../test/group-fixtures';
import { registrationFor } from '../../test/replica-fixtures';
import { GroupCoordinator } from '../group/group-coordinator';
import type { CommitRequest } from '../group/group-offsets';
import { OFFSETS_TOPIC } from '../group/offsets-topic';
import { ClusterView } from '../metadata/cluster-view';
import type { PlacementChange } from '../metadata/metadata-store';
import { CoordinatorLocator } from './coordinator-locator';
import { partitionForKey } from './partition-for-key';

/*
 * Two group coordinators in one process over one `__consumer_offsets` (shared records, as
 * replicas of the same partition would have), and a client that follows FindCoordinator as Kafka
 * clients do: it keeps the coordinator it found until that one answers NOT_COORDINATOR, then
 * finds it again. Moving a partition's leadership from one coordinator to the other moves its
 * groups with their committed offsets, and the client re-finds them.
 */

const PARTITIONS = 4;
const GROUP = 'payments';

function coordinatorOver(store: MemoryGroupStore, scheduler: ManualScheduler): GroupCoordinator {
  return new GroupCoordinator({
    config: TEST_GROUP_CONFIG,
    store,
    source: store,
    scheduler,
    logger: { info() {}, warn() {} },
    catalog: {
      hasPartition: (topic) => topic === 'ledger',
      topic: () => undefined,
      topicById: () => undefined,
    },
  });
}

function commit(offset: number): CommitRequest {
  return {
    groupId: GROUP,
    generationId: -1,
    memberId: '',
    groupInstanceId: null,
    retentionTimeMs: -1,
    apiVersion: 7,
    topics: [
      {
        name: 'ledger',
        partitions: [
          { partitionIndex: 0, committedOffset: offset, committedLeaderEpoch: -1, committedMetadata: '' },
        ],
      },
    ],
  };
}

describe('moving a __consumer_offsets partition between two coordinators', () => {
  it('moves the groups with their offsets, and a client re-finds the coordinator after NOT_COORDINATOR', async () => {
    const store = new MemoryGroupStore(PARTITIONS);
    const scheduler = new ManualScheduler();
    const coordinators = new Map([
      [1, coordinatorOver(store, scheduler)],
      [2, coordinatorOver(store, scheduler)],
    ]);
    const view = new ClusterView(1);
    let revision = 0;
    const apply = (...changes: PlacementChange[]) => view.apply(changes, ++revision);
    const leadBy = (partition: number, leader: number, leaderEpoch: number): PlacementChange => ({
      kind: 'assignment',
      topic: OFFSETS_TOPIC,
      partition,
      assignment: {
        topic: OFFSETS_TOPIC,
        partition,
        replicas: [1, 2],
        leader,
        leaderEpoch,
        isr: [1, 2],
        version: leaderEpoch,
      },
    });
    apply(
      { kind: 'broker', brokerId: 1, broker: registrationFor(1) },
      { kind: 'broker', brokerId: 2, broker: registrationFor(2) },
      {
        kind: 'topic',
        name: OFFSETS_TOPIC,
        topic: {
          name: OFFSETS_TOPIC,
          topicId: 'o',
          partitionCount: PARTITIONS,
          configs: {},
          internal: true,
          createdAtMs: 0,
        },
      },
      ...Array.from({ length: PARTITIONS }, (_, partition) => leadBy(partition, 1, 0)),
    );
    for (let partition = 0; partition < PARTITIONS; partition++)
      await coordinators.get(1)!.onBecomeLeader(partition, 0);
    const locator = new CoordinatorLocator(view, { transaction: async () => {}, group: async () => {} });

    // The client: a cached coordinator, found again after NOT_COORDINATOR.
    let cached: number | undefined;
    const finds: number[] = [];
    const send = async <T>(
      request: (coordinator: GroupCoordinator) => Promise<T>,
      failed: (answer: T) => boolean,
    ) => {
      for (let attempt = 0; attempt < 3; attempt++) {
        if (cached === undefined) {
          cached = (await locator.findCoordinator(0, GROUP, 'client')).nodeId;
          finds.push(cached);
        }
        const answer = await request(coordinators.get(cached)!);
        if (!failed(answer)) return answer;
        cached = undefined;
      }
      throw new Error('the coordinator could not be found');
    };
    const notCoordinator = (errors: { partitions: { errorCode: number }[] }[]) =>
      errors[0]!.partitions[0]!.errorCode === ErrorCode.NOT_COORDINATOR;

    expect(await send((coordinator) => coordinator.commit(commit(5)), notCoordinator)).toEqual([
      { name: 'ledger', partitions: [{ partitionIndex: 0, errorCode: ErrorCode.NONE }] },
    ]);
    expect(finds).toEqual([1]);

    // The controller moves the group's partition to broker 2 with a new leader epoch.
    const partition = partitionForKey(GROUP, PARTITIONS);
    coordinators.get(1)!.onResign(partition);
    apply(leadBy(partition, 2, 1));
    await coordinators.get(2)!.onBecomeLeader(partition, 1);

    // The client's next request goes to broker 1, is told NOT_COORDINATOR, and re-finds broker 2,
    // which replayed the partition: the offset committed through broker 1 is there.
    const fetched = await send(
      async (coordinator) => coordinator.fetchOffsets(GROUP, [{ name: 'ledger', partitionIndexes: [0] }]),
      (answer) => answer.errorCode === ErrorCode.NOT_COORDINATOR,
    );
    expect(finds).toEqual([1, 2]);
    expect(fetched.topics[0]!.partitions[0]).toMatchObject({ committedOffset: 5, errorCode: ErrorCode.NONE });
    await send((coordinator) => coordinator.commit(commit(9)), notCoordinator);
    expect(coordinators.get(2)!.fetchOffsets(GROUP, null).topics[0]!.partitions[0]!.committedOffset).toBe(9);
    expect(coordinators.get(1)!.fetchOffsets(GROUP, null).errorCode).toBe(ErrorCode.NOT_COORDINATOR);
    // The second coordinator's writes carry its leader epoch, so a replica layer can fence the first.
    expect(store.writes.at(-1)).toEqual({ partition, leaderEpoch: 1 });
  });
});
