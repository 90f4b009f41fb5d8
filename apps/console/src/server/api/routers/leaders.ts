import { electLeaders, leaderElectionPermission } from '../../services/leader-elections';
import { rest } from '../rest-meta';
import { emptyInputSchema } from '../schemas/common';
import {
  leaderElectionInputSchema,
  leaderElectionPermissionSchema,
  leaderElectionResultSchema,
} from '../schemas/leader-elections';
import type { Transport } from '../transport';
import { createTRPCRouter, restProcedure } from '../trpc';

const TAG = 'leaders';

/*
 * Leader elections on their own router, apart from the replication views: the ISR page offers
 * them, but they change the cluster, and the replication router only reads.
 */
export function leadersRouter(transport: Transport) {
  return createTRPCRouter({
    permission: restProcedure(
      transport,
      rest(TAG, 'GET', '/leaders/permission', 'Whether the caller may elect leaders (ALTER on the cluster)'),
      emptyInputSchema,
    )
      .output(leaderElectionPermissionSchema)
      .query(async ({ ctx }) => leaderElectionPermission(await ctx.services.aclPolicy?.())),

    elect: restProcedure(
      transport,
      rest(
        TAG,
        'POST',
        '/leaders/elect',
        'Elect the preferred (or, confirmed, an unclean) leader of the named partitions, or of every partition',
        'Kafka’s ElectLeaders, as the caller: needs ALTER on the cluster. `type` is `preferred` (each ' +
          'partition’s first replica leads again when it is live and in sync) or `unclean` (a leaderless ' +
          'partition gets any live replica, losing what it lacked; needs `confirm: true`). Without ' +
          '`partitions` every partition is covered and the answer lists only those that needed an election. ' +
          'Each row says `elected`, `not-needed` or `failed` with the Kafka error name, the reason and the ' +
          'leader afterwards.',
      ),
      leaderElectionInputSchema,
    )
      .output(leaderElectionResultSchema)
      .mutation(({ ctx, input }) => electLeaders(ctx.services.broker.admin(), input, ctx.services.now)),
  });
}
