import { readThroughputHistory, readThroughputTrends } from '../../services/history';
import { describeTopicLogCleaner } from '../../services/log-cleaner';
import { alterTopicConfigs, describeTopicConfigs } from '../../services/topic-configs';
import {
  addPartitions,
  createTopic,
  deleteRecords,
  deleteTopic,
  describeTopic,
  listTopics,
  TOPIC_PRESETS,
} from '../../services/topics';
import { rest } from '../rest-meta';
import { emptyInputSchema } from '../schemas/common';
import {
  throughputHistoryInputSchema,
  throughputHistorySchema,
  throughputTrendsInputSchema,
  trendsSchema,
} from '../schemas/history';
import { topicLogCleanerSchema } from '../schemas/log-cleaner';
import {
  addPartitionsInputSchema,
  addPartitionsResultSchema,
  alterConfigsInputSchema,
  alterConfigsResultSchema,
  createTopicInputSchema,
  createTopicResultSchema,
  deleteRecordsInputSchema,
  deleteRecordsResultSchema,
  deleteTopicResultSchema,
  topicConfigsSchema,
  topicDetailSchema,
  topicListInputSchema,
  topicListSchema,
  topicPresetListSchema,
  topicRefInputSchema,
} from '../schemas/topics';
import type { Transport } from '../transport';
import { createTRPCRouter, publicProcedure, restProcedure } from '../trpc';

const TAG = 'topics';

export function topicsRouter(transport: Transport) {
  return createTRPCRouter({
    list: restProcedure(
      transport,
      rest(TAG, 'GET', '/topics', 'Search, sort and page topics'),
      topicListInputSchema,
    )
      .output(topicListSchema)
      .query(async ({ ctx, input }) =>
        listTopics(ctx.services.broker.internal(), input, ctx.services.now, await ctx.services.aclPolicy?.()),
      ),

    presets: restProcedure(
      transport,
      rest(TAG, 'GET', '/topic-presets', 'Config presets for new topics'),
      emptyInputSchema,
    )
      .output(topicPresetListSchema)
      .query(({ ctx }) => ({
        asOfMs: ctx.services.now(),
        presets: TOPIC_PRESETS.map((preset) => ({ ...preset })),
      })),

    get: restProcedure(
      transport,
      rest(TAG, 'GET', '/topics/{topic}', 'A topic and its partitions'),
      topicRefInputSchema,
    )
      .output(topicDetailSchema)
      .query(async ({ ctx, input }) =>
        describeTopic(
          ctx.services.broker.internal(),
          input.topic,
          ctx.services.now,
          await ctx.services.aclPolicy?.(),
        ),
      ),

    create: restProcedure(
      transport,
      rest(TAG, 'POST', '/topics', 'Create a topic from a preset and custom configs'),
      createTopicInputSchema,
    )
      .output(createTopicResultSchema)
      .mutation(async ({ ctx, input }) => {
        const created = await createTopic(ctx.services.broker.admin(), input);
        return { asOfMs: ctx.services.now(), ...created, validateOnly: input.validateOnly };
      }),

    delete: restProcedure(
      transport,
      rest(TAG, 'DELETE', '/topics/{topic}', 'Delete a topic'),
      topicRefInputSchema,
    )
      .output(deleteTopicResultSchema)
      .mutation(async ({ ctx, input }) => {
        await deleteTopic(ctx.services.broker.admin(), input.topic);
        return { asOfMs: ctx.services.now(), name: input.topic, deleted: true as const };
      }),

    configs: restProcedure(
      transport,
      rest(TAG, 'GET', '/topics/{topic}/configs', 'Topic configs with their sources'),
      topicRefInputSchema,
    )
      .output(topicConfigsSchema)
      .query(async ({ ctx, input }) => {
        const configs = await describeTopicConfigs(ctx.services.broker.admin(), input.topic);
        return { asOfMs: ctx.services.now(), topic: input.topic, configs };
      }),

    logCleaner: restProcedure(
      transport,
      rest(
        TAG,
        'GET',
        '/topics/{topic}/log-cleaner',
        "The log cleaner's state of a compacted topic's replicas",
        'Per replica, from the broker holding it: dirty ratio against min.cleanable.dirty.ratio, the last clean and the bytes it removed, bytes removed since the broker started, when the next clean is due, and the last error.',
      ),
      topicRefInputSchema,
    )
      .output(topicLogCleanerSchema)
      .query(({ ctx, input }) => {
        const { broker, now } = ctx.services;
        return describeTopicLogCleaner(broker.admin(), broker.internal(), input.topic, now);
      }),

    alterConfigs: restProcedure(
      transport,
      rest(TAG, 'PATCH', '/topics/{topic}/configs', 'Set or reset config keys (dryRun: diff only)'),
      alterConfigsInputSchema,
    )
      .output(alterConfigsResultSchema)
      .mutation(async ({ ctx, input }) => {
        const diff = await alterTopicConfigs(ctx.services.broker.admin(), input);
        return { asOfMs: ctx.services.now(), topic: input.topic, dryRun: input.dryRun, diff };
      }),

    addPartitions: restProcedure(
      transport,
      rest(TAG, 'POST', '/topics/{topic}/partitions', 'Raise the partition count'),
      addPartitionsInputSchema,
    )
      .output(addPartitionsResultSchema)
      .mutation(async ({ ctx, input }) => {
        const { previousCount } = await addPartitions(ctx.services.broker.admin(), input);
        return {
          asOfMs: ctx.services.now(),
          topic: input.topic,
          previousCount,
          count: input.count,
          validateOnly: input.validateOnly,
        };
      }),

    deleteRecords: restProcedure(
      transport,
      rest(
        TAG,
        'POST',
        '/topics/{topic}/delete-records',
        'Delete records before offsets',
        'Moves each partition\'s log start to `beforeOffset` ("-1": the high watermark) and answers the new log starts. ' +
          'An offset past the high watermark is 400 with OFFSET_OUT_OF_RANGE, naming the partition (partitions given valid offsets are still done); ' +
          'a partition the topic does not have is 404 (UNKNOWN_TOPIC_OR_PARTITION).',
      ),
      deleteRecordsInputSchema,
    )
      .output(deleteRecordsResultSchema)
      .mutation(async ({ ctx, input }) => {
        const partitions = await deleteRecords(ctx.services.broker.admin(), input);
        return { asOfMs: ctx.services.now(), topic: input.topic, partitions };
      }),

    throughputHistory: restProcedure(
      transport,
      rest(
        TAG,
        'GET',
        '/topics/{topic}/throughput-history',
        'Records and bytes produced and consumed per second over time',
        'Client traffic the brokers sampled (replication not counted), per second, one value per bucket of `resolutionMs` ' +
          'from `startMs` (null: no sample). `since` (15m, 1h, 6h, 24h; 1h by default) picks how far back; the last hour ' +
          'comes at the sampling interval (10 s by default), longer ranges in one-minute buckets.',
      ),
      throughputHistoryInputSchema,
    )
      .output(throughputHistorySchema)
      .query(({ ctx, input }) =>
        readThroughputHistory(ctx.services.broker.internal(), input, ctx.services.now),
      ),

    /** The topics list's sparklines (records produced per second, last hour); the console's own. */
    throughputTrends: publicProcedure
      .input(throughputTrendsInputSchema)
      .output(trendsSchema)
      .query(({ ctx, input }) =>
        readThroughputTrends(ctx.services.broker.internal(), input.topics, ctx.services.now),
      ),
  });
}
