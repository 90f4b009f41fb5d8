import { z } from 'zod';
import { asOfMsSchema, decimalSchema } from './common';

/** One reason behind the cluster's health, as concrete as the broker can say it. */
export const healthReasonSchema = z.object({
  check: z.string().meta({ description: 'The readiness check or gateway condition, e.g. "storage".' }),
  ok: z.boolean(),
  detail: z.string(),
});

export const healthSchema = z.object({
  status: z.enum(['healthy', 'degraded', 'unreachable', 'restricted']).meta({
    description:
      'restricted: the broker answered, but the caller may not DESCRIBE the cluster, so its health is not shown.',
  }),
  /** Failing reasons first. */
  reasons: z.array(healthReasonSchema),
});

export const brokerInfoSchema = z.object({
  nodeId: z.number().int(),
  clusterId: z.string(),
  version: z.string(),
  startedAtMs: z.number().int(),
  listeners: z.array(z.object({ name: z.string(), host: z.string(), port: z.number().int() })),
  connectionCount: z.number().int(),
});

export const throughputSchema = z.object({
  windowMs: z.number().int(),
  bytesInPerSecond: z.number(),
  recordsInPerSecond: z.number(),
  bytesOutPerSecond: z.number(),
  recordsOutPerSecond: z.number(),
  requestsPerSecond: z.number(),
});

export const clusterCountsSchema = z.object({
  topics: z
    .number()
    .int()
    .meta({ description: 'Topics other than internal ones, as the topic list counts them.' }),
  internalTopics: z.number().int(),
  partitions: z.number().int().meta({
    description: "The partitions of the topics counted in `topics`: internal topics' are left out.",
  }),
  groups: z.number().int(),
  /** Partitions with a leader whose ISR is smaller than their replica set; null when unknown. */
  underReplicatedPartitions: z.number().int().nullable(),
  /** Partitions without a leader; null when unknown. */
  offlinePartitions: z.number().int().nullable(),
});

/**
 * The overview answers even when the broker cannot be reached: health then says why, and the
 * broker facts are null, so the page can still render.
 */
export const clusterOverviewSchema = z.object({
  asOfMs: asOfMsSchema,
  brokerAddress: z.string(),
  health: healthSchema,
  broker: brokerInfoSchema.nullable(),
  counts: clusterCountsSchema.nullable(),
  logSizeBytes: decimalSchema.nullable(),
  throughput: throughputSchema.nullable(),
});

export type ClusterOverview = z.infer<typeof clusterOverviewSchema>;
export type HealthReason = z.infer<typeof healthReasonSchema>;
