import { aclsRouter } from './routers/acls';
import { auditRouter } from './routers/audit';
import { brokersRouter } from './routers/brokers';
import { clusterRouter } from './routers/cluster';
import { groupsRouter } from './routers/groups';
import { leadersRouter } from './routers/leaders';
import { messagesRouter } from './routers/messages';
import { reassignmentsRouter } from './routers/reassignments';
import { replicationRouter } from './routers/replication';
import { schemasRouter } from './routers/schemas';
import { topicsRouter } from './routers/topics';
import { transactionsRouter } from './routers/transactions';
import { usersRouter } from './routers/users';
import { REST_TRANSPORT, TRPC_TRANSPORT, type Transport } from './transport';
import { createCallerFactory, createTRPCRouter } from './trpc';

function createAppRouter(transport: Transport) {
  return createTRPCRouter({
    cluster: clusterRouter(transport),
    brokers: brokersRouter(transport),
    replication: replicationRouter(transport),
    reassignments: reassignmentsRouter(transport),
    leaders: leadersRouter(transport),
    topics: topicsRouter(transport),
    messages: messagesRouter(transport),
    schemas: schemasRouter(transport),
    groups: groupsRouter(transport),
    transactions: transactionsRouter(transport),
    acls: aclsRouter(transport),
    users: usersRouter(transport),
    audit: auditRouter(transport),
  });
}

/** The console's client and in-process callers use this router. */
export const appRouter = createAppRouter(TRPC_TRANSPORT);

/**
 * The same procedures and resolvers with REST's own input schemas: served under /api/v1 and
 * described by /api/openapi.json.
 */
export const restRouter = createAppRouter(REST_TRANSPORT);

export type AppRouter = typeof appRouter;

/** Calls procedures in-process: `createCaller(createContextInner({ services }))`. */
export const createCaller = createCallerFactory(appRouter);
