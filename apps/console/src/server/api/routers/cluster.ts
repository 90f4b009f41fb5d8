import { clusterOverview } from '../../services/cluster-overview';
import { readPartitionHealth } from '../../services/partition-health';
import { readPeerOverviews } from '../../services/replication-reasons';
import { rest } from '../rest-meta';
import { clusterOverviewSchema } from '../schemas/cluster';
import { emptyInputSchema } from '../schemas/common';
import type { Transport } from '../transport';
import { createTRPCRouter, restProcedure } from '../trpc';

const TAG = 'cluster';

export function clusterRouter(transport: Transport) {
  return createTRPCRouter({
    overview: restProcedure(
      transport,
      rest(TAG, 'GET', '/cluster/overview', 'Health reasons, broker identity, counts and recent throughput'),
      emptyInputSchema,
    )
      .output(clusterOverviewSchema)
      .query(({ ctx }) => {
        const { broker, now } = ctx.services;
        const sources = {
          describeBroker: () => broker.internal().describeBroker(),
          readPartitionHealth: () => readPartitionHealth(broker.admin()),
          unreachableBrokers: () => {
            const registered = new Set(
              broker
                .client()
                .cluster()
                .brokers.map((node) => node.nodeId),
            );
            return broker.reachability
              .known()
              .filter((node) => registered.has(node.nodeId) && broker.reachability.isSkipped(node.nodeId))
              .map((node) => `broker ${node.nodeId} (${node.host}:${node.port})`);
          },
          peerOverviews: (selfNodeId: number) =>
            readPeerOverviews(
              broker.client().cluster().brokers,
              selfNodeId,
              (node) => broker.nodeInternal(node).describeBroker(),
              broker.reachability,
            ),
        };
        return clusterOverview(sources, broker.address, now);
      }),
  });
}
