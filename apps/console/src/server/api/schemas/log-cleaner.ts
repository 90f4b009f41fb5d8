import { z } from 'zod';
import { asOfMsSchema, decimalSchema } from './common';

/** When a replica's next clean is due (see LogCleanerNextClean in the SDK). */
export const nextCleanDueSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('now') }),
  z.object({
    kind: z.literal('dirty-ratio'),
    /** By max.compaction.lag.ms at the latest; null when unset or nothing dirty waits. */
    latestAtMs: z.number().int().nullable(),
  }),
  z.object({ kind: z.literal('retry'), atMs: z.number().int() }),
]);

/** One replica of a compacted partition, as the log cleaner of the broker holding it last judged it. */
export const logCleanerReplicaSchema = z.object({
  partition: z.number().int(),
  brokerId: z.number().int(),
  leader: z.boolean(),
  /** Dirty bytes over cleanable bytes, 0 to 1. */
  dirtyRatio: z.number(),
  /** min.cleanable.dirty.ratio: a clean is due at this dirty ratio. */
  minCleanableDirtyRatio: z.number(),
  /** The cleaner checkpoint (where the dirty part starts); null before the first clean. */
  cleanedUpToOffset: decimalSchema.nullable(),
  lastCleanedAtMs: z.number().int().nullable(),
  lastOutcome: z.enum(['cleaned', 'not-due', 'abandoned', 'failed']),
  lastError: z.string().nullable(),
  /** Bytes the last clean removed; null before one since the broker started. */
  lastCleanRemovedBytes: decimalSchema.nullable(),
  removedBytesTotal: decimalSchema,
  nextCleanDue: nextCleanDueSchema,
});

export const topicLogCleanerSchema = z.object({
  asOfMs: asOfMsSchema,
  topic: z.string(),
  /** cleanup.policy contains compact; without it the cleaner leaves the topic alone and `replicas` is empty. */
  compacted: z.boolean(),
  /** By partition, then broker; a replica the cleaner has not looked at yet has no row. */
  replicas: z.array(logCleanerReplicaSchema),
});

export type LogCleanerReplica = z.infer<typeof logCleanerReplicaSchema>;
export type TopicLogCleaner = z.infer<typeof topicLogCleanerSchema>;
