import { deleteGroup, describeGroup, listGroups, resetGroupOffsets } from '../../services/groups';
import { readLagHistory, readLagTrends } from '../../services/history';
import { rest } from '../rest-meta';
import {
  deleteGroupResultSchema,
  groupDetailSchema,
  groupListInputSchema,
  groupListSchema,
  groupRefInputSchema,
  resetOffsetsInputSchema,
  resetOffsetsResultSchema,
} from '../schemas/groups';
import {
  lagHistoryInputSchema,
  lagHistorySchema,
  lagTrendsInputSchema,
  trendsSchema,
} from '../schemas/history';
import type { Transport } from '../transport';
import { createTRPCRouter, publicProcedure, restProcedure } from '../trpc';

const TAG = 'groups';

export function groupsRouter(transport: Transport) {
  return createTRPCRouter({
    list: restProcedure(
      transport,
      rest(TAG, 'GET', '/groups', 'Consumer groups with state and total lag'),
      groupListInputSchema,
    )
      .output(groupListSchema)
      .query(({ ctx, input }) => listGroups(ctx.services.broker.internal(), input, ctx.services.now)),

    get: restProcedure(
      transport,
      rest(TAG, 'GET', '/groups/{groupId}', 'Members, assignments and lag per partition'),
      groupRefInputSchema,
    )
      .output(groupDetailSchema)
      .query(async ({ ctx, input }) => {
        const { broker, now } = ctx.services;
        return describeGroup(
          broker.admin(),
          broker.internal(),
          input.groupId,
          now,
          await ctx.services.aclPolicy?.(),
        );
      }),

    lagHistory: restProcedure(
      transport,
      rest(
        TAG,
        'GET',
        '/groups/{groupId}/lag-history',
        'Lag over time, in total and per partition, with the consume and produce rates and the time to zero',
        'The lag the brokers sampled (last stable offset − committed offset), one value per bucket of `resolutionMs` from ' +
          '`startMs` (null: no sample); `since` (15m, 1h, 6h, 24h; 1h by default) picks how far back. `timeToZero` is ' +
          'total lag / (consume rate − produce rate) over the last six buckets while the group gains, else `not-catching-up`. ' +
          '`partitions=false` leaves the per-partition series out.',
      ),
      lagHistoryInputSchema,
    )
      .output(lagHistorySchema)
      .query(({ ctx, input }) => readLagHistory(ctx.services.broker.internal(), input, ctx.services.now)),

    /** The groups list's sparklines (total lag, last hour); the console's own. */
    lagTrends: publicProcedure
      .input(lagTrendsInputSchema)
      .output(trendsSchema)
      .query(({ ctx, input }) =>
        readLagTrends(ctx.services.broker.internal(), input.groupIds, ctx.services.now),
      ),

    resetOffsets: restProcedure(
      transport,
      rest(
        TAG,
        'POST',
        '/groups/{groupId}/reset-offsets',
        'Plan (dryRun, the default) or apply an offset reset of an empty group',
        "A target outside a partition's [log start, log end] (an offset or a shift past the end, or before the start) is " +
          "kept at that bound, as Kafka's consumer-groups tool keeps it: the plan line has `clamped` set and the " +
          '`requestedOffset` the target pointed at, and `warnings` says so in words, in the preview and in the applied result.',
      ),
      resetOffsetsInputSchema,
    )
      .output(resetOffsetsResultSchema)
      .mutation(({ ctx, input }) => resetGroupOffsets(ctx.services.broker.admin(), input, ctx.services.now)),

    delete: restProcedure(
      transport,
      rest(TAG, 'DELETE', '/groups/{groupId}', 'Delete an empty group'),
      groupRefInputSchema,
    )
      .output(deleteGroupResultSchema)
      .mutation(async ({ ctx, input }) => {
        await deleteGroup(ctx.services.broker.admin(), input.groupId);
        return { asOfMs: ctx.services.now(), groupId: input.groupId, deleted: true as const };
      }),
  });
}
