import { listBrokers } from '../../services/brokers';
import { rest } from '../rest-meta';
import { brokerListSchema } from '../schemas/brokers';
import { emptyInputSchema } from '../schemas/common';
import type { Transport } from '../transport';
import { createTRPCRouter, restProcedure } from '../trpc';

const TAG = 'brokers';

export function brokersRouter(transport: Transport) {
  return createTRPCRouter({
    list: restProcedure(
      transport,
      rest(TAG, 'GET', '/brokers', 'Brokers with the partitions they lead and hold'),
      emptyInputSchema,
    )
      .output(brokerListSchema)
      .query(({ ctx }) => listBrokers(ctx.services.broker.admin(), ctx.services.now)),
  });
}
