import { ErrorCode, WeirError } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import type { AssignmentChangeCause } from '../metadata/assignment-change';
import { ClusterView } from '../metadata/cluster-view';
import type { BrokerRegistration, PartitionAssignment, WriteFence } from '../metadata/metadata-store';
import { LeaderElections } from './leader-elections';
import { ElectionType } from './preferred-election';

function broker(brokerId: number, storageId?: string): BrokerRegistration {
  return {
    brokerId,
    rack: null,
    listeners: { client: { host: '127.0.0.1', port: 9000 + brokerId }, internal: null },
    sessionId: `session-${brokerId}`,
    registeredAtMs: 0,
    ...(storageId === undefined ? {} : { storageId }),
  };
}

const led: PartitionAssignment = {
  topic: 't',
  partition: 0,
  replicas: [1, 2, 3],
  leader: 2,
  leaderEpoch: 4,
  isr: [1, 2, 3],
  version: 7,
};

/** A view of brokers 1–3 and topic t with `assignment`, at revision 1. */
function viewWith(assignment: PartitionAssignment, brokers = [broker(1), broker(2), broker(3)]): ClusterView {
  const view = new ClusterView(3);
  view.apply(
    [
      ...brokers.map((registration) => ({
        kind: 'broker' as const,
        brokerId: registration.brokerId,
        broker: registration,
      })),
      {
        kind: 'topic',
        name: 't',
        topic: { name: 't', topicId: 'id', partitionCount: 1, configs: {}, internal: false, createdAtMs: 0 },
      },
      { kind: 'assignment', topic: 't', partition: 0, assignment },
    ],
    1,
  );
  return view;
}

interface Write {
  next: PartitionAssignment;
  fence: WriteFence | undefined;
  cause: AssignmentChangeCause | undefined;
}

/** A store that applies each accepted write to the view, as the etcd image does before answering. */
function storeOver(
  view: ClusterView,
  refuse: (next: PartitionAssignment) => PartitionAssignment | undefined,
) {
  const writes: Write[] = [];
  let revision = 1;
  return {
    writes,
    store: {
      async compareAndSetAssignment(
        next: PartitionAssignment,
        fence?: WriteFence,
        cause?: AssignmentChangeCause,
      ) {
        writes.push({ next, fence, cause });
        const newer = refuse(next);
        if (newer !== undefined) {
          // Another writer came first: the view learns its change a moment later.
          setTimeout(
            () =>
              view.apply([{ kind: 'assignment', topic: 't', partition: 0, assignment: newer }], ++revision),
            10,
          );
          throw new WeirError(ErrorCode.INVALID_UPDATE_VERSION, { detail: 'stale' });
        }
        const stored = { ...next, version: next.version + 1 };
        view.apply([{ kind: 'assignment', topic: 't', partition: 0, assignment: stored }], ++revision);
        return stored;
      },
    },
  };
}

describe('LeaderElections', () => {
  it('elects the preferred replica with the cause and fence asked for, answering once the view shows it', async () => {
    const view = viewWith(led);
    const { store, writes } = storeOver(view, () => undefined);
    const elections = new LeaderElections({ view, store });
    const results = await elections.elect(ElectionType.preferred, [{ topic: 't', partition: 0 }], {
      timeoutMs: 1000,
      fence: 'controller',
      cause: 'auto-leader-rebalance',
    });
    expect(results).toEqual([
      { topic: 't', partition: 0, errorCode: ErrorCode.NONE, errorMessage: null, leader: 1 },
    ]);
    expect(writes).toMatchObject([
      {
        next: { leader: 1, leaderEpoch: 5, version: 7 },
        fence: 'controller',
        cause: 'auto-leader-rebalance',
      },
    ]);
    expect(view.assignment('t', 0)).toMatchObject({ leader: 1, leaderEpoch: 5 });
  });

  it('decides once more from the newer assignment after a stale write, then gives up', async () => {
    const view = viewWith(led);
    // The first write loses to an ISR change that keeps broker 1; the second to one more.
    let refusals = 0;
    const { store, writes } = storeOver(view, (next) =>
      refusals++ < 2 ? { ...led, version: next.version + 1, isr: [1, 2] } : undefined,
    );
    const elections = new LeaderElections({ view, store });
    const [result] = await elections.elect(ElectionType.preferred, [{ topic: 't', partition: 0 }], {
      timeoutMs: 1000,
    });
    expect(writes.map((write) => [write.next.version, write.cause])).toEqual([
      [7, 'preferred-election'],
      [8, 'preferred-election'],
    ]);
    expect(result).toMatchObject({ errorCode: ErrorCode.INVALID_UPDATE_VERSION });
  });

  it('after a stale write, answers from the newer assignment: a preferred replica that left the ISR', async () => {
    const view = viewWith(led);
    let refused = false;
    const { store, writes } = storeOver(view, (next) => {
      if (refused) return undefined;
      refused = true;
      return { ...led, version: next.version + 1, isr: [2, 3] };
    });
    const elections = new LeaderElections({ view, store });
    const [result] = await elections.elect(ElectionType.preferred, [{ topic: 't', partition: 0 }], {
      timeoutMs: 1000,
    });
    expect(writes).toHaveLength(1);
    expect(result).toMatchObject({ errorCode: ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE });
  });

  it('takes a replica back on another disk for not live, and leaves out unneeded elections of every partition', async () => {
    const onNewDisk = { ...led, memberStorage: { '1': 'disk-a', '2': 'disk-b', '3': 'disk-c' } };
    const view = viewWith(onNewDisk, [broker(1, 'disk-new'), broker(2, 'disk-b'), broker(3, 'disk-c')]);
    const { store, writes } = storeOver(view, () => undefined);
    const elections = new LeaderElections({ view, store });
    expect(
      await elections.elect(ElectionType.preferred, [{ topic: 't', partition: 0 }], { timeoutMs: 100 }),
    ).toMatchObject([{ errorCode: ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE }]);
    expect(await elections.elect(ElectionType.unclean, null, { timeoutMs: 100 })).toEqual([]);
    expect(writes).toEqual([]);
  });
});
