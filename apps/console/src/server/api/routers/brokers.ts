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
      rest(
        TAG,
        'GET',
        '/brokers',
        'Brokers with their state, the controller and the partitions they lead and hold',
      ),
      emptyInputSchema,
    )
      .output(brokerListSchema)
      .query(({ ctx }) => {
        const { broker, now } = ctx.services;
        const sources = {
          admin: broker.admin(),
          probe: (node: { nodeId: number; host: string; port: number }) =>
            broker.nodeInternal(node).describeBroker(),
          reachability: broker.reachability,
        };
        return listBrokers(sources, now);
      }),
  });
}
