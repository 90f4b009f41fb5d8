import { describeGroup, listGroups, resetGroupOffsets } from '../../services/groups';
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
import { createTRPCRouter, publicProcedure } from '../trpc';

const TAG = 'groups';

export const groupsRouter = createTRPCRouter({
  list: publicProcedure
    .meta(rest(TAG, 'GET', '/groups', 'Consumer groups with state and total lag'))
    .input(groupListInputSchema)
    .output(groupListSchema)
    .query(({ ctx, input }) => listGroups(ctx.services.broker.internal(), input, ctx.services.now)),

  get: publicProcedure
    .meta(rest(TAG, 'GET', '/groups/{groupId}', 'Members, assignments and lag per partition'))
    .input(groupRefInputSchema)
    .output(groupDetailSchema)
    .query(({ ctx, input }) => {
      const { broker, now } = ctx.services;
      return describeGroup(broker.admin(), broker.internal(), input.groupId, now);
    }),

  resetOffsets: publicProcedure
    .meta(
      rest(
        TAG,
        'POST',
        '/groups/{groupId}/reset-offsets',
        'Plan (dryRun, the default) or apply an offset reset of an empty group',
      ),
    )
    .input(resetOffsetsInputSchema)
    .output(resetOffsetsResultSchema)
    .mutation(({ ctx, input }) => resetGroupOffsets(ctx.services.broker.admin(), input, ctx.services.now)),

  delete: publicProcedure
    .meta(rest(TAG, 'DELETE', '/groups/{groupId}', 'Delete an empty group'))
    .input(groupRefInputSchema)
    .output(deleteGroupResultSchema)
    .mutation(async ({ ctx, input }) => {
      await ctx.services.broker.admin().deleteGroups([input.groupId]);
      return { asOfMs: ctx.services.now(), groupId: input.groupId, deleted: true as const };
    }),
});
