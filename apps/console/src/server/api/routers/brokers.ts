import { listBrokers } from '../../services/brokers';
import { rest } from '../rest-meta';
import { brokerListSchema } from '../schemas/brokers';
import { emptyInputSchema } from '../schemas/common';
import { createTRPCRouter, publicProcedure } from '../trpc';

const TAG = 'brokers';

export const brokersRouter = createTRPCRouter({
  list: publicProcedure
    .meta(rest(TAG, 'GET', '/brokers', 'Brokers with the partitions they lead and hold'))
    .input(emptyInputSchema)
    .output(brokerListSchema)
    .query(({ ctx }) => listBrokers(ctx.services.broker.admin(), ctx.services.now)),
});
