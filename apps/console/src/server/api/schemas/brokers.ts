import { z } from 'zod';
import { asOfMsSchema } from './common';

export const brokerRowSchema = z.object({
  nodeId: z.number().int(),
  host: z.string(),
  port: z.number().int(),
  rack: z.string().nullable(),
  isController: z.boolean(),
  /** Partitions this broker leads. */
  leaderCount: z.number().int(),
  /** Partition replicas this broker holds. */
  replicaCount: z.number().int(),
});

export const brokerListSchema = z.object({
  asOfMs: asOfMsSchema,
  clusterId: z.string().nullable(),
  controllerId: z.number().int(),
  brokers: z.array(brokerRowSchema),
});

export type BrokerRow = z.infer<typeof brokerRowSchema>;
export type BrokerList = z.infer<typeof brokerListSchema>;
