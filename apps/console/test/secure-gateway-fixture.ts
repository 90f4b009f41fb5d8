import { Admin, CLUSTER_RESOURCE_NAME, Client, InternalAdmin } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import pino, { type Logger } from 'pino';
import { createBrokerClients } from '../src/server/admin-client';
import { handleRestRequest } from '../src/server/api/http';
import { createCaller } from '../src/server/api/root';
import { createContextInner } from '../src/server/api/trpc';
import type { ConsoleAuth } from '../src/server/auth/console-auth';
import { createConsoleAuth } from '../src/server/auth/console-auth-factory';
import type { ConsoleCredentialsStatus } from '../src/server/auth/console-credentials-status';
import type { CredentialCheckLimits, CredentialChecks } from '../src/server/auth/credential-checks';
import type { Session, SessionLimits } from '../src/server/auth/sessions';
import type { GatewayServices } from '../src/server/gateway-services';
import { DEFAULT_SEARCH_LIMITS } from '../src/server/services/message-search';

/*
 * The secure profile behind a console in login mode: a SASL client listener, ACLs required, the
 * bootstrap admin a super user. Callers and REST requests made through it run as a logged-in
 * user (act-as on the internal listener), so the broker's ACLs decide, as in production.
 */

export const SECURE_ADMIN = { username: 'admin', password: 'admin-console-secret-5e2a' } as const;

export interface SecureGateway {
  readonly broker: RunningBroker;
  /** The console's own token connection, for setting up users, topics and ACLs. */
  readonly internal: InternalAdmin;
  readonly admin: Admin;
  readonly auth: ConsoleAuth;
  /** The credential checks behind `auth`, on connections of their own. */
  readonly credentials: CredentialChecks;
  readonly credentialsStatus: ConsoleCredentialsStatus;
  /** Logs in through `auth`, failing unless a session opens. */
  sessionOf(username: string, password: string): Promise<Session>;
  /** The gateway's own services, which run as the console (login mode runs requests as the user). */
  readonly services: GatewayServices;
  /** A tRPC caller acting as the user (logged in with the password). */
  callerAs(username: string, password: string): Promise<ReturnType<typeof createCaller>>;
  /** A REST request to /api/v1 with just the headers given (none: without a session). */
  rest(
    method: string,
    path: string,
    options?: { body?: unknown; headers?: Record<string, string> },
  ): Promise<Response>;
  /** A REST request to /api/v1 with a bearer token of the user. */
  restAs(
    user: { username: string; password: string },
    method: string,
    path: string,
    body?: unknown,
  ): Promise<Response>;
  dispose(): Promise<void>;
}

const ORIGIN = 'http://console.test';

/** Settings a test may change; the defaults fail nothing slowly. */
export interface SecureGatewayOptions {
  /** The broker's `security.authFailureDelayMs` (0: wrong passwords are answered at once). */
  readonly authFailureDelayMs?: number;
  readonly credentialLimits?: Partial<CredentialCheckLimits>;
  readonly sessionLimits?: Partial<SessionLimits>;
  readonly credentialRecheckMs?: number;
  /** The console's clock (sessions and credential rechecks). */
  readonly now?: () => number;
  /** The token the console's credential checks present (the broker's own by default). */
  readonly consoleToken?: string;
  /** The gateway's logger (silent by default). */
  readonly logger?: Logger;
  /** The broker's `security.allowEveryoneIfNoAclFound` (false by default: ACLs required). */
  readonly allowEveryoneIfNoAclFound?: boolean;
}

export async function startSecureGateway(options: SecureGatewayOptions = {}): Promise<SecureGateway> {
  const broker = await startBroker({
    listeners: { client: { securityProtocol: 'SASL_PLAINTEXT' } },
    security: {
      bootstrapAdmin: { ...SECURE_ADMIN },
      superUsers: [`User:${SECURE_ADMIN.username}`],
      allowEveryoneIfNoAclFound: options.allowEveryoneIfNoAclFound ?? false,
      authFailureDelayMs: options.authFailureDelayMs ?? 0,
    },
    topics: { autoCreateEnable: false },
  });
  const tokenClient = new Client({
    bootstrapServers: [broker.internalBootstrap],
    clientId: 'secure-gateway-test',
    sasl: { mechanism: 'WEIR-TOKEN', token: broker.internalToken },
  });
  const internal = new InternalAdmin(tokenClient);
  const services: GatewayServices = {
    broker: createBrokerClients({
      bootstrap: [broker.internalBootstrap],
      token: () => broker.internalToken,
      createInternalAdmin: (client) => new InternalAdmin(client),
    }),
    logger: options.logger ?? pino({ level: 'silent' }),
    now: Date.now,
    searchLimits: DEFAULT_SEARCH_LIMITS,
  };
  const { auth, credentials, credentialsStatus } = createConsoleAuth({
    mode: 'login',
    now: options.now ?? Date.now,
    bootstrap: [broker.internalBootstrap],
    token: () => options.consoleToken ?? broker.internalToken,
    shared: services.broker,
    logger: services.logger,
    ...(options.credentialLimits === undefined ? {} : { credentialLimits: options.credentialLimits }),
    ...(options.sessionLimits === undefined ? {} : { sessionLimits: options.sessionLimits }),
    ...(options.credentialRecheckMs === undefined
      ? {}
      : { credentialRecheckMs: options.credentialRecheckMs }),
    clientsFor: (principal) =>
      createBrokerClients({
        bootstrap: [broker.internalBootstrap],
        token: () => broker.internalToken,
        actAs: principal,
        createInternalAdmin: (client) => new InternalAdmin(client),
      }),
  });

  async function sessionOf(username: string, password: string): Promise<Session> {
    const outcome = await auth.login(username, password);
    if (outcome.kind !== 'session') throw new Error(`${username} could not log in: ${outcome.kind}`);
    return outcome.session;
  }

  function rest(
    method: string,
    path: string,
    options: { body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { ...options.headers };
    const init: RequestInit = { method, headers };
    if (options.body !== undefined) {
      init.body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    return handleRestRequest(new Request(`${ORIGIN}/api/v1${path}`, init), services, auth);
  }

  return {
    broker,
    internal,
    admin: new Admin(tokenClient),
    auth,
    credentials,
    credentialsStatus,
    sessionOf,
    services,
    async callerAs(username, password) {
      const session = await sessionOf(username, password);
      return createCaller(createContextInner({ services: auth.servicesFor(session, services) }));
    },
    rest,
    async restAs(user, method, path, body) {
      const session = await sessionOf(user.username, user.password);
      return rest(method, path, { body, headers: { authorization: `Bearer ${session.id}` } });
    },
    async dispose() {
      try {
        await auth.close();
        await services.broker.close();
        await tokenClient.close();
      } finally {
        // The broker stops, and its data directory goes, even when a client fails to close.
        await broker.dispose();
      }
    },
  };
}

/**
 * A secure gateway with a topic `orders` and a user who may only describe the cluster (DESCRIBE
 * on CLUSTER): the reader the cluster-operation permission tests log in as.
 */
export async function startGatewayWithClusterReader(reader: {
  username: string;
  password: string;
}): Promise<SecureGateway> {
  const gateway = await startSecureGateway();
  await gateway.internal.upsertUser({ ...reader, mechanism: 'SCRAM-SHA-256' });
  await gateway.admin.createTopics([{ name: 'orders', partitions: 1 }]);
  await gateway.admin.createAcls([
    {
      resourceType: 'CLUSTER',
      resourceName: CLUSTER_RESOURCE_NAME,
      patternType: 'LITERAL',
      principal: `User:${reader.username}`,
      host: '*',
      operation: 'DESCRIBE',
      permission: 'ALLOW',
    },
  ]);
  return gateway;
}
