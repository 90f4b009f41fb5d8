import 'server-only';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { createOpenApiFetchHandler } from 'trpc-to-openapi';
import type { GatewayServices } from '../gateway-services';
import { REST_BASE_PATH } from './openapi';
import { appRouter, restRouter } from './root';
import { createContextInner } from './trpc';

/*
 * The gateway's two HTTP faces over the same router: tRPC (the console's client, with SSE
 * subscriptions) and REST under /api/v1. Route files only bind these to Next.js; tests call them
 * with Request objects and their own services.
 */

export const TRPC_BASE_PATH = '/api/trpc';

export function handleTrpcRequest(request: Request, services: GatewayServices): Promise<Response> {
  return fetchRequestHandler({
    endpoint: TRPC_BASE_PATH,
    req: request,
    router: appRouter,
    createContext: () => createContextInner({ services }),
    onError({ error, path, type }) {
      // Expected failures (bad input, missing topic, …) are the caller's; only log server faults.
      if (error.code !== 'INTERNAL_SERVER_ERROR') return;
      services.logger.error({ err: error.cause ?? error, path, type }, 'tRPC procedure failed');
    },
  });
}

export function handleRestRequest(request: Request, services: GatewayServices): Promise<Response> {
  return createOpenApiFetchHandler({
    endpoint: REST_BASE_PATH,
    req: request,
    router: restRouter,
    createContext: () => createContextInner({ services }),
    onError({ error, path }) {
      if (error.code !== 'INTERNAL_SERVER_ERROR') return;
      services.logger.error({ err: error.cause ?? error, path }, 'REST procedure failed');
    },
  });
}
