import { readReplicationHealth } from '../../services/isr-health';
import { rest } from '../rest-meta';
import { replicationHealthInputSchema, replicationHealthSchema } from '../schemas/replication';
import type { Transport } from '../transport';
import { createTRPCRouter, restProcedure } from '../trpc';

const TAG = 'replication';

export function replicationRouter(transport: Transport) {
  return createTRPCRouter({
    health: restProcedure(
      transport,
      rest(
        TAG,
        'GET',
        '/replication/health',
        'Partitions that are offline, under or at min ISR, under-replicated or led by a non-preferred replica, with the reasons',
      ),
      replicationHealthInputSchema,
    )
      .output(replicationHealthSchema)
      .query(({ ctx, input }) => {
        const { broker, now } = ctx.services;
        const sources = {
          admin: broker.admin(),
          // Each broker is asked directly; until brokers report their followers' lag, its answer
          // to the overview says it is up, and the partitions are judged from the metadata.
          ask: async (node: { nodeId: number; host: string; port: number }) => {
            await broker.nodeInternal(node).describeBroker();
            return [];
          },
          reachability: broker.reachability,
        };
        return readReplicationHealth(sources, input, now);
      }),
  });
}
