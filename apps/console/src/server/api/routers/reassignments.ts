import type { GatewayServices } from '../../gateway-services';
import {
  cancelReassignments,
  executeReassignments,
  listReassignments,
  planReassignments,
} from '../../services/reassignments';
import type { ReassignmentSources } from '../../services/replica-placement';
import { rest } from '../rest-meta';
import { emptyInputSchema } from '../schemas/common';
import {
  moveResultsSchema,
  reassignmentCancelInputSchema,
  reassignmentExecuteInputSchema,
  reassignmentListSchema,
  reassignmentPlanInputSchema,
  reassignmentPlanSchema,
} from '../schemas/reassignments';
import type { Transport } from '../transport';
import { createTRPCRouter, restProcedure } from '../trpc';

const TAG = 'reassignments';

/** The cluster as the reassignment services read it, as the caller (the broker's ACLs apply). */
function sourcesOf(services: GatewayServices): ReassignmentSources {
  const { broker } = services;
  return { admin: broker.admin(), internal: broker.internal(), reachability: broker.reachability };
}

export function reassignmentsRouter(transport: Transport) {
  return createTRPCRouter({
    list: restProcedure(
      transport,
      rest(
        TAG,
        'GET',
        '/reassignments',
        'Partition moves in progress, with how much of the leader’s log each new replica holds',
      ),
      emptyInputSchema,
    )
      .output(reassignmentListSchema)
      .query(async ({ ctx }) =>
        listReassignments(sourcesOf(ctx.services), await ctx.services.aclPolicy?.(), ctx.services.now),
      ),

    plan: restProcedure(
      transport,
      rest(
        TAG,
        'POST',
        '/reassignments/plan',
        'Preview moves, or the drain of a broker: what each adds, removes and copies; changes nothing',
        'Give either `moves` (topic, partition and target replicas, the first the preferred leader) or ' +
          '`drainBrokerId`. Rows the plan cannot make are in `refused` with the problem in words; the others can ' +
          'still be submitted.',
      ),
      reassignmentPlanInputSchema,
    )
      .output(reassignmentPlanSchema)
      // A mutation although nothing changes: the plan can name thousands of moves, too many for a query string.
      .mutation(({ ctx, input }) => planReassignments(sourcesOf(ctx.services), input, ctx.services.now)),

    execute: restProcedure(
      transport,
      rest(
        TAG,
        'POST',
        '/reassignments',
        'Start partition moves (AlterPartitionReassignments); needs ALTER on the cluster',
        'The broker answers each partition: a refused one carries its Kafka error name and message. A move ' +
          'of a partition already moving replaces that move.',
      ),
      reassignmentExecuteInputSchema,
    )
      .output(moveResultsSchema)
      .mutation(({ ctx, input }) => executeReassignments(sourcesOf(ctx.services), input, ctx.services.now)),

    cancel: restProcedure(
      transport,
      rest(
        TAG,
        'POST',
        '/reassignments/cancel',
        'Cancel the named moves, or every move in progress; needs ALTER on the cluster',
      ),
      reassignmentCancelInputSchema,
    )
      .output(moveResultsSchema)
      .mutation(({ ctx, input }) => cancelReassignments(sourcesOf(ctx.services), input, ctx.services.now)),
  });
}
