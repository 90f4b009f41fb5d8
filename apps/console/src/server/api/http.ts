import 'server-only';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { createOpenApiFetchHandler } from 'trpc-to-openapi';
import { authenticateRequest, type ConsoleAuth } from '../auth/console-auth';
import { handleRestSession } from '../auth/session-routes';
import type { GatewayServices } from '../gateway-services';
import { refuseCrossSiteMutation } from '../security/cross-site-mutations';
import { REST_BASE_PATH } from './openapi';
import { refusedBodyMediaType, refusedBodyMethodQuery } from './rest-input';
import { appRouter, restRouter } from './root';
import { createContextInner } from './trpc';

/*
 * The gateway's two HTTP faces over the same router: tRPC (the console's client, with SSE
 * subscriptions) and REST under /api/v1. Route files only bind these to Next.js; tests call them
 * with Request objects and their own services.
 */

export const TRPC_BASE_PATH = '/api/trpc';

/**
 * The services a request runs with: in login mode its session's (the broker clients acting for the
 * user), else the shared ones; a Response when it is refused (403 for a change another site could
 * have sent, in every mode; 401 without a session, 403 without the session's CSRF token on a change).
 */
async function servicesOf(
  request: Request,
  services: GatewayServices,
  auth: ConsoleAuth | undefined,
): Promise<GatewayServices | Response> {
  const crossSite = refuseCrossSiteMutation(request, auth?.mode ?? 'none');
  if (crossSite !== undefined) return crossSite;
  const outcome = await authenticateRequest(request, auth);
  if (!outcome.ok) return outcome.response;
  if (outcome.identity.kind === 'open' || auth === undefined) return services;
  return auth.servicesFor(outcome.identity.session, services);
}

export async function handleTrpcRequest(
  request: Request,
  shared: GatewayServices,
  auth?: ConsoleAuth,
): Promise<Response> {
  const services = await servicesOf(request, shared, auth);
  if (services instanceof Response) return services;
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

export async function handleRestRequest(
  request: Request,
  shared: GatewayServices,
  auth?: ConsoleAuth,
): Promise<Response> {
  if (new URL(request.url).pathname.replace(/\/$/, '') === `${REST_BASE_PATH}/sessions`) {
    return refuseCrossSiteMutation(request, auth?.mode ?? 'none') ?? handleRestSession(request, auth);
  }
  const services = await servicesOf(request, shared, auth);
  if (services instanceof Response) return services;
  const refused = refusedBodyMediaType(request) ?? refusedBodyMethodQuery(request);
  if (refused !== undefined) return refused;
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
