import { ErrorCode, WeirError } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import { pollUntil } from '../../test/group-fixtures';
import { ClusterView } from '../metadata/cluster-view';
import type { BrokerRegistration, PartitionAssignment } from '../metadata/metadata-store';
import { PartitionController } from './partition-controller';

function broker(brokerId: number): BrokerRegistration {
  return {
    brokerId,
    rack: null,
    listeners: { client: { host: '127.0.0.1', port: 9000 + brokerId }, internal: null },
    sessionId: `session-${brokerId}`,
    registeredAtMs: 0,
  };
}

const assignment: PartitionAssignment = {
  topic: 't',
  partition: 0,
  replicas: [1, 2, 3],
  leader: 1,
  leaderEpoch: 3,
  isr: [1, 2],
  version: 7,
};

describe('PartitionController and its election fence', () => {
  it('tries again when the view names it controller before its write fence is armed', async () => {
    const view = new ClusterView(1);
    let revision = 0;
    view.apply(
      [
        { kind: 'broker', brokerId: 1, broker: broker(1) },
        {
          kind: 'topic',
          name: 't',
          topic: {
            name: 't',
            topicId: 'id',
            partitionCount: 1,
            configs: {},
            internal: false,
            createdAtMs: 0,
          },
        },
        { kind: 'assignment', topic: 't', partition: 0, assignment },
      ],
      ++revision,
    );
    // The election's answer arrives after the watch showed the title: the first write is refused.
    let fenceArmed = false;
    const written: PartitionAssignment[] = [];
    const controller = new PartitionController({
      view,
      localBrokerId: 1,
      policyOf: () => ({ minInsyncReplicas: 2, uncleanLeaderElectionEnable: false }),
      logger: { info: () => {}, warn: () => {} },
      store: {
        compareAndSetAssignment: async (next, fence) => {
          expect(fence).toBe('controller');
          if (!fenceArmed) {
            fenceArmed = true;
            throw new WeirError(ErrorCode.NOT_CONTROLLER, { detail: 'broker 1 is not the controller' });
          }
          written.push(next);
          return next;
        },
      },
    });
    controller.start();
    view.apply([{ kind: 'controller', controllerId: 1 }], ++revision);
    try {
      // Broker 2 is not live: it leaves the ISR (to the eligible replicas, below min ISR 2).
      const stored = await pollUntil(() => written[0], 'the controller to write once its fence is armed', {
        timeoutMs: 5000,
        intervalMs: 20,
      });
      expect(stored).toMatchObject({ leader: 1, isr: [1], elr: [2] });
    } finally {
      controller.stop();
    }
  });
});
