import { z } from 'zod';
import { asOfMsSchema } from './common';

/**
 * live: registered and answering the console; unreachable: registered (in the metadata) but the
 * console could not reach its internal listener; gone: seen earlier, no longer registered (its
 * session ended, so its partitions are offline).
 */
export const brokerStateSchema = z.enum(['live', 'unreachable', 'gone']);

export const ledTopicSchema = z.object({
  topic: z.string(),
  /** The partitions of the topic this broker leads, ascending. */
  partitions: z.array(z.number().int()),
});

export const brokerRowSchema = z.object({
  nodeId: z.number().int(),
  host: z.string(),
  port: z.number().int(),
  rack: z.string().nullable(),
  state: brokerStateSchema,
  /** Why the broker is not live, or null. */
  stateDetail: z.string().nullable(),
  isController: z.boolean(),
  /** Partitions this broker leads. */
  leaderCount: z.number().int(),
  /** The partitions it leads, by topic (sorted by name). */
  ledTopics: z.array(ledTopicSchema),
  /** Partition replicas this broker holds. */
  replicaCount: z.number().int(),
});

export const brokerListSchema = z.object({
  asOfMs: asOfMsSchema,
  clusterId: z.string().nullable(),
  /** -1 when the cluster has no controller. */
  controllerId: z.number().int(),
  /** Partitions without a leader (leader -1), as `topic-partition`. */
  offlinePartitions: z.array(z.string()),
  brokers: z.array(brokerRowSchema),
});

export type BrokerRow = z.infer<typeof brokerRowSchema>;
export type BrokerList = z.infer<typeof brokerListSchema>;
