import { readReplicationHealth } from '../../services/isr-health';
import { readReplicationEvents } from '../../services/replication-events';
import { rest } from '../rest-meta';
import { replicationHealthInputSchema, replicationHealthSchema } from '../schemas/replication';
import { replicationEventsInputSchema, replicationEventsSchema } from '../schemas/replication-events';
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
          // Each broker is asked directly: only a partition's leader knows how far its followers
          // are behind, so every broker reports the partitions it leads.
          ask: async (node: { nodeId: number; host: string; port: number }) =>
            (
              await broker
                .nodeInternal(node)
                .describeReplication(input.topic === undefined ? undefined : [input.topic])
            ).map((led) => ({
              topic: led.topic,
              partition: led.partition,
              isrChangedAtMs: led.isrChangedAtMs,
              leaderChangedAtMs: led.leaderChangedAtMs,
              followers: led.followers.map(({ brokerId, lagRecords, lagMs }) => ({
                brokerId,
                lagRecords,
                lagMs,
              })),
            })),
          reachability: broker.reachability,
        };
        return readReplicationHealth(sources, input, now);
      }),
    events: restProcedure(
      transport,
      rest(
        TAG,
        'GET',
        '/replication/events',
        'The replication timeline, newest first: leader changes, offline partitions, ISR changes, reassignments and broker sessions',
        'Reads the events the brokers keep (WeirListClusterEvents, DESCRIBE on CLUSTER, as the ISR view needs). The range is `range` (15m, 1h, 24h, 7d) back from `untilMs` or now, or `sinceMs`..`untilMs`; 24 hours by default. `kinds` is a comma-separated list of event kinds.',
      ),
      replicationEventsInputSchema,
    )
      .output(replicationEventsSchema)
      // Any broker answers: the events are in the cluster's store, not in one broker's memory.
      .query(({ ctx, input }) =>
        readReplicationEvents(ctx.services.broker.internal(), input, ctx.services.now),
      ),
  });
}
