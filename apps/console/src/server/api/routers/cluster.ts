import { clusterOverview } from '../../services/cluster-overview';
import { rest } from '../rest-meta';
import { clusterOverviewSchema } from '../schemas/cluster';
import { emptyInputSchema } from '../schemas/common';
import { createTRPCRouter, publicProcedure } from '../trpc';

const TAG = 'cluster';

export const clusterRouter = createTRPCRouter({
  overview: publicProcedure
    .meta(
      rest(TAG, 'GET', '/cluster/overview', 'Health reasons, broker identity, counts and recent throughput'),
    )
    .input(emptyInputSchema)
    .output(clusterOverviewSchema)
    .query(({ ctx }) => {
      const { broker, now } = ctx.services;
      return clusterOverview(() => broker.internal().describeBroker(), broker.address, now);
    }),
});
