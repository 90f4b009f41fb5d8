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

/** A listener the broker reports it is bound to: `client` is what clients use, `internal` the console's. */
export const brokerListenerSchema = z.object({
  name: z.string(),
  host: z.string(),
  port: z.number().int(),
});

/** One log directory of the broker (DescribeLogDirs): the partitions' bytes and the disk's space. */
export const brokerLogDirSchema = z.object({
  path: z.string(),
  /** Bytes of the partition logs in it. */
  sizeBytes: z.number(),
  partitionCount: z.number().int(),
  /** The file system's size and its bytes still usable; null when the broker does not say. */
  totalBytes: z.number().nullable(),
  usableBytes: z.number().nullable(),
});

/**
 * How far the partitions a broker leads are from an even spread: the cluster's led partitions over
 * its registered brokers, and this broker's count against that share in percent.
 */
export const leaderSkewSchema = z.object({
  evenShare: z.number(),
  /** (leaderCount − evenShare) / evenShare × 100, rounded; 0 when nothing is led anywhere. */
  percent: z.number().int(),
});

export const brokerRowSchema = z.object({
  nodeId: z.number().int(),
  /** The address the console reaches it at (its internal listener, as the metadata advertises it). */
  host: z.string(),
  port: z.number().int(),
  /** `host:port` of its client listener, what clients use; null when it did not answer. */
  clientAddress: z.string().nullable(),
  /** Every listener it reports, client first; empty when it did not answer. */
  listeners: z.array(brokerListenerSchema),
  /** Its Weir version and when its process started; null when it did not answer. */
  version: z.string().nullable(),
  startedAtMs: z.number().nullable(),
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
  /** Of those, the ones it follows (holds without leading). */
  followerCount: z.number().int(),
  leaderSkew: leaderSkewSchema,
  /** Its log directories, or null when they could not be read (`logDirsError` says why). */
  logDirs: z.array(brokerLogDirSchema).nullable(),
  logDirsError: z.string().nullable(),
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

export const brokerRefInputSchema = z.object({ nodeId: z.number().int().min(0) });

/** A broker config that is not at its default (DescribeConfigs on the broker resource). */
export const brokerConfigEntrySchema = z.object({
  name: z.string(),
  /** Null when sensitive (a password or token): set, but never shown. */
  value: z.string().nullable(),
  source: z.string(),
  isSensitive: z.boolean(),
});

export const brokerConfigsSchema = z.object({
  asOfMs: asOfMsSchema,
  nodeId: z.number().int(),
  /** The configs set in its file, environment or flags, sorted by name. */
  configs: z.array(brokerConfigEntrySchema),
});

export type BrokerRow = z.infer<typeof brokerRowSchema>;
export type BrokerConfigs = z.infer<typeof brokerConfigsSchema>;
export type BrokerList = z.infer<typeof brokerListSchema>;
