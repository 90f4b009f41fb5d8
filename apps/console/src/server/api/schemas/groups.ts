import { z } from 'zod';
import {
  actionPermissionSchema,
  asOfMsSchema,
  decimalSchema,
  groupIdSchema,
  pageLimitSchema,
  pageOffsetSchema,
  signedDecimalSchema,
  topicNameSchema,
} from './common';

export const groupSortKeySchema = z.enum(['name', 'state', 'lag', 'members']);

export const groupListInputSchema = z.object({
  search: z.string().max(255).optional(),
  state: z.string().max(64).optional(),
  sortBy: groupSortKeySchema.default('name'),
  descending: z.boolean().optional(),
  offset: pageOffsetSchema,
  limit: pageLimitSchema,
});

export const groupRowSchema = z.object({
  groupId: z.string(),
  /** Empty, PreparingRebalance, CompletingRebalance, Stable or Dead. */
  state: z.string(),
  protocolType: z.string(),
  protocol: z.string(),
  memberCount: z.number().int(),
  totalLag: decimalSchema,
  topics: z.array(z.string()),
});

export const groupListSchema = z.object({
  asOfMs: asOfMsSchema,
  totalCount: z.number().int(),
  /** Groups per state over the whole (unpaged, unsearched) list. */
  stateCounts: z.record(z.string(), z.number().int()),
  groups: z.array(groupRowSchema),
});

export const groupRefInputSchema = z.object({ groupId: groupIdSchema });

export const groupMemberSchema = z.object({
  memberId: z.string(),
  groupInstanceId: z.string().nullable(),
  clientId: z.string(),
  clientHost: z.string(),
  /** Subscribed topics, when the group uses the standard consumer protocol. */
  topics: z.array(z.string()).nullable(),
  assignment: z.array(z.object({ topic: z.string(), partitions: z.array(z.number().int()) })).nullable(),
  /** The lag summed over the partitions assigned to this member; null when the assignment is unknown. */
  lag: decimalSchema.nullable(),
});

export const groupPartitionLagSchema = z.object({
  topic: z.string(),
  partition: z.number().int(),
  /** Null when the group has committed nothing there. */
  committedOffset: decimalSchema.nullable(),
  /**
   * The partition's high watermark (as Kafka's consumer-groups tool reports "log end"). Null when
   * the partition could not be read (offline, or its leader unreachable).
   */
  logEndOffset: decimalSchema.nullable(),
  /**
   * The last stable offset, which lag is measured against: records of still-open transactions
   * are not lag yet. Null when the partition could not be read.
   */
  lastStableOffset: decimalSchema.nullable(),
  /** Transaction-aware: last stable offset − committed offset (floored at 0). */
  lag: decimalSchema,
  memberId: z.string().nullable(),
});

export const groupDetailSchema = groupRowSchema.extend({
  asOfMs: asOfMsSchema,
  members: z.array(groupMemberSchema),
  partitions: z.array(groupPartitionLagSchema),
  /** What may be done to the group now (offsets reset and delete wait for it to be empty). */
  allowedActions: z.object({ resetOffsets: actionPermissionSchema, delete: actionPermissionSchema }),
});

export const resetTargetSchema = z.enum(['earliest', 'latest', 'timestamp', 'offset', 'shiftBy']);

export const resetOffsetsInputSchema = z
  .object({
    groupId: groupIdSchema,
    target: resetTargetSchema,
    /** With `target=timestamp`. */
    timestampMs: z.number().int().min(0).optional(),
    /** With `target=offset`. */
    offset: decimalSchema.optional(),
    /** With `target=shiftBy`: added to each committed offset (negative moves back). */
    shiftBy: signedDecimalSchema.optional(),
    /** Default: the topics the group has committed offsets for. */
    topics: z.array(topicNameSchema).max(1000).optional(),
    /** Only compute the old → new plan. Default true, so applying is always a deliberate step. */
    dryRun: z.boolean().default(true),
  })
  .superRefine((input, context) => {
    const needed = { timestamp: 'timestampMs', offset: 'offset', shiftBy: 'shiftBy' } as const;
    if (input.target in needed) {
      const field = needed[input.target as keyof typeof needed];
      if (input[field] === undefined) {
        context.addIssue({
          code: 'custom',
          path: [field],
          message: `target "${input.target}" needs ${field}`,
        });
      }
    }
  });

export const plannedOffsetSchema = z.object({
  topic: z.string(),
  partition: z.number().int(),
  currentOffset: decimalSchema.nullable(),
  newOffset: decimalSchema,
  /**
   * Where the target pointed before it was kept within the log, as a decimal string: a shift may
   * point below 0, or past what an int64 holds.
   */
  requestedOffset: z.string().regex(/^-?\d+$/),
  clamped: z.enum(['log-start', 'log-end']).nullable().meta({
    description:
      "Set when the target pointed outside [log start, log end] and newOffset is that bound instead (as Kafka's consumer-groups tool does).",
  }),
});

export const resetOffsetsResultSchema = z.object({
  asOfMs: asOfMsSchema,
  groupId: z.string(),
  dryRun: z.boolean(),
  plan: z.array(plannedOffsetSchema),
  /** One sentence per clamped line, for people; empty when the target fell inside every log. */
  warnings: z.array(z.string()),
});

export const deleteGroupResultSchema = z.object({
  asOfMs: asOfMsSchema,
  groupId: z.string(),
  deleted: z.literal(true),
});

export type GroupListInput = z.infer<typeof groupListInputSchema>;
export type GroupList = z.infer<typeof groupListSchema>;
export type GroupRow = z.infer<typeof groupRowSchema>;
export type GroupDetail = z.infer<typeof groupDetailSchema>;
export type ResetOffsetsInput = z.infer<typeof resetOffsetsInputSchema>;
export type ResetOffsetsResult = z.infer<typeof resetOffsetsResultSchema>;
