import { CONFIG_SOURCES, CONFIG_VALUE_TYPES } from '@weir/protocol/names';
import { z } from 'zod';
import {
  actionPermissionSchema,
  asOfMsSchema,
  decimalSchema,
  pageLimitSchema,
  pageOffsetSchema,
  partitionSchema,
  signedDecimalSchema,
  topicNameSchema,
} from './common';

export const topicSortKeySchema = z.enum(['name', 'partitions', 'sizeBytes', 'messages']);

export const topicListInputSchema = z.object({
  search: z.string().max(249).optional(),
  includeInternal: z.boolean().optional(),
  sortBy: topicSortKeySchema.default('name'),
  descending: z.boolean().optional(),
  offset: pageOffsetSchema,
  limit: pageLimitSchema,
});

export const topicGroupLagSchema = z.object({ groupId: z.string(), lag: decimalSchema });

/**
 * What may be done to a topic now, each with the reason when not. The UI disables its controls from
 * this; the server applies the same policy to the mutations.
 */
export const topicAllowedActionsSchema = z.object({
  delete: actionPermissionSchema,
  deleteRecords: actionPermissionSchema,
  addPartitions: actionPermissionSchema,
  editConfigs: actionPermissionSchema,
  produce: actionPermissionSchema,
});

export const topicSummarySchema = z.object({
  name: z.string(),
  internal: z.boolean(),
  partitionCount: z.number().int(),
  replicationFactor: z.number().int(),
  sizeBytes: decimalSchema,
  messageCount: decimalSchema,
  groups: z.array(topicGroupLagSchema),
  allowedActions: topicAllowedActionsSchema,
});

export const topicListSchema = z.object({
  asOfMs: asOfMsSchema,
  /** Topics matching the search, before paging. */
  totalCount: z.number().int(),
  topics: z.array(topicSummarySchema),
});

export const topicRefInputSchema = z.object({ topic: topicNameSchema });

export const partitionDetailSchema = z.object({
  partition: z.number().int(),
  leaderId: z.number().int(),
  replicas: z.array(z.number().int()),
  isr: z.array(z.number().int()),
  underReplicated: z.boolean(),
  /**
   * On a cluster, a partition whose leader is gone (leader -1) or unreachable from the console has
   * no offsets to show: they are null, and its size and counts 0.
   */
  offline: z.boolean(),
  logStartOffset: decimalSchema.nullable(),
  logEndOffset: decimalSchema.nullable(),
  highWatermark: decimalSchema.nullable(),
  lastStableOffset: decimalSchema.nullable(),
  /** High watermark − last stable offset: records of open transactions, not yet readable by read_committed consumers. */
  stableGap: decimalSchema.nullable(),
  sizeBytes: decimalSchema,
  segmentCount: z.number().int(),
  producerCount: z.number().int(),
});

export const topicDetailSchema = topicSummarySchema.extend({
  asOfMs: asOfMsSchema,
  partitions: z.array(partitionDetailSchema),
});

export const configSourceSchema = z.enum(CONFIG_SOURCES);

export const configEntrySchema = z.object({
  name: z.string(),
  value: z.string().nullable(),
  source: configSourceSchema,
  readOnly: z.boolean(),
  isDefault: z.boolean(),
  isSensitive: z.boolean(),
  synonyms: z.array(z.object({ name: z.string(), value: z.string().nullable(), source: configSourceSchema })),
  /** Kafka's type of the value (DescribeConfigs v3). */
  type: z.enum(CONFIG_VALUE_TYPES),
  /** What the config is for, as the broker describes it; null from brokers that do not say. */
  documentation: z.string().nullable(),
});

export const topicConfigsSchema = z.object({
  asOfMs: asOfMsSchema,
  topic: z.string(),
  configs: z.array(configEntrySchema),
});

const configNameSchema = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[a-z0-9.]+$/, 'a config name is lower-case words separated by dots');

export const configChangeSchema = z.object({
  name: configNameSchema,
  /** `delete` returns the key to its default. */
  operation: z.enum(['set', 'delete']),
  value: z.string().max(4096).optional(),
});

export const alterConfigsInputSchema = z.object({
  topic: topicNameSchema,
  changes: z.array(configChangeSchema).min(1).max(100),
  /** Check with the broker and return the diff without applying it. */
  dryRun: z.boolean().default(false),
});

export const configDiffSchema = z.object({
  name: z.string(),
  oldValue: z.string().nullable(),
  oldSource: configSourceSchema,
  /** For `delete`: null until the broker reports the default it falls back to. */
  newValue: z.string().nullable(),
  operation: z.enum(['set', 'delete']),
});

export const alterConfigsResultSchema = z.object({
  asOfMs: asOfMsSchema,
  topic: z.string(),
  dryRun: z.boolean(),
  diff: z.array(configDiffSchema),
});

/** Presets that the broker accepts today (it refuses cleanup.policy=compact, so none offers it). */
export const topicPresetIdSchema = z.enum([
  'default',
  'retention-1d',
  'retention-7d',
  'retention-forever',
  'compacted',
]);

export const topicPresetSchema = z.object({
  id: topicPresetIdSchema,
  label: z.string(),
  description: z.string(),
  configs: z.record(z.string(), z.string()),
});

export const topicPresetListSchema = z.object({
  asOfMs: asOfMsSchema,
  presets: z.array(topicPresetSchema),
});

export const createTopicInputSchema = z.object({
  name: topicNameSchema,
  partitions: z.number().int().min(1).max(10_000).default(1),
  replicationFactor: z.number().int().min(1).max(32).optional(),
  preset: topicPresetIdSchema.default('default'),
  /** Custom configs by their Kafka names; they override the preset's. */
  configs: z.record(configNameSchema, z.string().max(4096)).optional(),
  validateOnly: z.boolean().default(false),
});

export const createTopicResultSchema = z.object({
  asOfMs: asOfMsSchema,
  name: z.string(),
  partitions: z.number().int(),
  configs: z.record(z.string(), z.string()),
  validateOnly: z.boolean(),
});

export const deleteTopicResultSchema = z.object({
  asOfMs: asOfMsSchema,
  name: z.string(),
  deleted: z.literal(true),
});

export const addPartitionsInputSchema = z.object({
  topic: topicNameSchema,
  /** The new total partition count; it can only grow. */
  count: z.number().int().min(1).max(10_000),
  validateOnly: z.boolean().default(false),
});

export const addPartitionsResultSchema = z.object({
  asOfMs: asOfMsSchema,
  topic: z.string(),
  previousCount: z.number().int(),
  count: z.number().int(),
  validateOnly: z.boolean(),
});

export const deleteRecordsInputSchema = z.object({
  topic: topicNameSchema,
  partitions: z
    .array(
      z.object({
        partition: partitionSchema,
        /** Records before this offset go; "-1" deletes up to the high watermark. */
        beforeOffset: signedDecimalSchema,
      }),
    )
    .min(1)
    .max(10_000),
});

export const deleteRecordsResultSchema = z.object({
  asOfMs: asOfMsSchema,
  topic: z.string(),
  partitions: z.array(z.object({ partition: z.number().int(), logStartOffset: decimalSchema })),
});

export type TopicListInput = z.infer<typeof topicListInputSchema>;
export type TopicList = z.infer<typeof topicListSchema>;
export type TopicSummary = z.infer<typeof topicSummarySchema>;
export type TopicAllowedActionsView = z.infer<typeof topicAllowedActionsSchema>;
export type TopicDetail = z.infer<typeof topicDetailSchema>;
export type PartitionDetail = z.infer<typeof partitionDetailSchema>;
export type TopicConfigs = z.infer<typeof topicConfigsSchema>;
export type ConfigDiff = z.infer<typeof configDiffSchema>;
export type AlterConfigsInput = z.infer<typeof alterConfigsInputSchema>;
export type AlterConfigsResult = z.infer<typeof alterConfigsResultSchema>;
export type TopicPreset = z.infer<typeof topicPresetSchema>;
export type TopicPresetId = z.infer<typeof topicPresetIdSchema>;
export type CreateTopicInput = z.infer<typeof createTopicInputSchema>;
export type DeleteRecordsInput = z.infer<typeof deleteRecordsInputSchema>;
