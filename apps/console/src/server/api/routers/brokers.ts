import { describeBrokerConfigs, listBrokers } from '../../services/brokers';
import { rest } from '../rest-meta';
import { brokerConfigsSchema, brokerListSchema, brokerRefInputSchema } from '../schemas/brokers';
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
        'Brokers with their state, listeners, version, the partitions they lead and hold, leader skew and disk use',
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
    configs: restProcedure(
      transport,
      rest(
        TAG,
        'GET',
        '/brokers/{nodeId}/configs',
        'The configs of one broker that are not at their default',
        'DescribeConfigs on the broker resource, sent to that broker: what its file, environment or flags ' +
          'set, in Kafka names where they exist. Sensitive values (passwords, tokens) are null.',
      ),
      brokerRefInputSchema,
    )
      .output(brokerConfigsSchema)
      .query(({ ctx, input }) =>
        describeBrokerConfigs(ctx.services.broker.admin(), input.nodeId, ctx.services.now),
      ),
  });
}
