import 'server-only';
import { initTRPC, TRPCError } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { ZodError, type z } from 'zod';
import { processConsoleAuth } from '../auth/process-auth';
import { SESSION_COOKIE } from '../auth/sessions';
import { type GatewayServices, processGatewayServices } from '../gateway-services';
import { brokerErrorData, toTrpcError } from './errors';
import type { Transport } from './transport';

/*
 * tRPC init, context and procedures. The context holds only injected services and no request, so
 * tests call procedures through `createCaller` against a broker of their own.
 */

export interface GatewayContext {
  readonly services: GatewayServices;
}

export function createContextInner(options: { services: GatewayServices }): GatewayContext {
  return { services: options.services };
}

/**
 * The context of a server component's calls: in login mode, the session's (the broker clients
 * acting for the user); without a live session the calls fail as UNAUTHORIZED.
 */
export async function createContext(): Promise<GatewayContext> {
  const services = processGatewayServices();
  const auth = processConsoleAuth();
  if (auth.mode === 'none') return createContextInner({ services });
  const { cookies } = await import('next/headers');
  const resumed = await auth.resume((await cookies()).get(SESSION_COOKIE)?.value);
  if (resumed.check === 'unverifiable') {
    throw new TRPCError({
      code: 'SERVICE_UNAVAILABLE',
      message: 'The broker cannot confirm the session now.',
    });
  }
  if (resumed.session === undefined) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Log in first.' });
  return createContextInner({ services: auth.servicesFor(resumed.session, services) });
}

/** A field-level input problem, named by its dotted path. */
export interface InputIssue {
  readonly path: string;
  readonly message: string;
}

const t = initTRPC
  .context<GatewayContext>()
  .meta<OpenApiMeta>()
  .create({
    errorFormatter({ shape, error }) {
      const broker = brokerErrorData(error);
      const issues: InputIssue[] | null =
        error.cause instanceof ZodError
          ? error.cause.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }))
          : null;
      return {
        ...shape,
        data: {
          ...shape.data,
          brokerCode: broker?.brokerCode ?? null,
          brokerError: broker?.brokerError ?? null,
          issues,
        },
      };
    },
  });

/**
 * Maps errors from the SDK (coded WeirErrors) and configuration problems to tRPC codes, so the
 * HTTP status and the error shape carry the Kafka code. tRPC has already wrapped the thrown value
 * in a TRPCError whose cause is the original.
 */
const brokerErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.code === 'INTERNAL_SERVER_ERROR' && result.error.cause !== undefined) {
    const mapped = toTrpcError(result.error.cause);
    if (mapped instanceof TRPCError) throw mapped;
  }
  return result;
});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

/** Every gateway procedure: the console authenticates to the broker, which authorizes each call. */
export const publicProcedure = t.procedure.use(brokerErrors);

/**
 * A procedure that REST exposes as well (`meta` from `rest()`), with the transport's own copy of
 * its input schema.
 */
export function restProcedure<S extends z.ZodObject>(transport: Transport, meta: OpenApiMeta, input: S) {
  return publicProcedure.meta(meta).input(transport.input(input, meta));
}
