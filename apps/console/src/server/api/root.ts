import { brokersRouter } from './routers/brokers';
import { clusterRouter } from './routers/cluster';
import { groupsRouter } from './routers/groups';
import { messagesRouter } from './routers/messages';
import { topicsRouter } from './routers/topics';
import { createCallerFactory, createTRPCRouter } from './trpc';

export const appRouter = createTRPCRouter({
  cluster: clusterRouter,
  brokers: brokersRouter,
  topics: topicsRouter,
  messages: messagesRouter,
  groups: groupsRouter,
});

export type AppRouter = typeof appRouter;

/** Calls procedures in-process: `createCaller(createContextInner({ services }))`. */
export const createCaller = createCallerFactory(appRouter);
