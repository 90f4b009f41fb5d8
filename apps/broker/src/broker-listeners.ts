import { randomBytes } from 'node:crypto';
import { connectionEvents, type ListenerObservation, requestObserver } from './broker-observers';
import type { BrokerCommands } from './commands/broker-commands';
import type { BrokerEndpoint, ListenerName } from './commands/cluster-commands';
import type { BrokerConfig } from './config/broker-config';
import type { Authorizer } from './security/acl/authorizer';
import type { UserStore } from './security/users/user-store';
import { clientListenerHandlers, internalListenerHandlers } from './server/api-table';
import { clientSaslMechanisms } from './server/auth/client-sasl-mechanisms';
import {
  type ListenerAuthenticator,
  noAuthentication,
  saslAuthenticator,
} from './server/auth/listener-authenticator';
import type { SaslAuthHooks } from './server/auth/sasl-connection-auth';
import { weirTokenMechanism } from './server/auth/weir-token-mechanism';
import { Dispatcher } from './server/dispatcher';
import { HandlerRegistry } from './server/handler-registry';
import { Listener } from './server/listener';
import { tlsForListener } from './server/tls/tls-server';

/** The broker's listeners: the client one always, the internal one unless it is disabled. */
export interface BrokerListeners {
  client: Listener;
  internal: Listener | undefined;
}

export interface BrokerListenersOptions {
  config: BrokerConfig;
  commands: BrokerCommands;
  /** The users SASL PLAIN and SCRAM check passwords against on the client listener. */
  userStore: UserStore;
  authHooks: SaslAuthHooks;
  /** The internal listener's policy, in which its bare token principal is a super user. */
  internalAuthorizer: Authorizer;
  /** The token the internal listener accepts, read at each authentication. */
  internalToken: () => string | undefined;
  observation: ListenerObservation;
}

/**
 * Builds the listeners, each with its handlers, authenticator, TLS and observers. The client
 * listener authenticates with SASL only when its security protocol says so; the internal one always
 * authenticates, with the WEIR-TOKEN mechanism (or a trusted client certificate).
 */
export function createBrokerListeners(options: BrokerListenersOptions): BrokerListeners {
  const { config, commands, authHooks, observation } = options;
  const client = config.listeners.client;
  const internal = config.listeners.internal;
  const clientSasl = client.securityProtocol === 'SASL_PLAINTEXT' || client.securityProtocol === 'SASL_SSL';
  const clientAuthenticator: ListenerAuthenticator = clientSasl
    ? saslAuthenticator(
        clientSaslMechanisms(client.saslMechanisms, options.userStore, randomBytes),
        authHooks,
      )
    : noAuthentication;
  const dispatcher = new Dispatcher({
    registry: new HandlerRegistry(clientListenerHandlers(clientSasl)),
    commands,
    observer: requestObserver(observation, 'client'),
    listenerName: 'client',
    authorizer: commands.acls.authorizer,
  });
  const clientListener = new Listener(
    {
      ...client,
      ...config.limits,
      authenticator: clientAuthenticator,
      tlsOptions: tlsForListener('client', client),
    },
    dispatcher,
    connectionEvents(observation, 'client'),
  );
  if (!internal.enabled) return { client: clientListener, internal: undefined };
  const internalDispatcher = new Dispatcher({
    registry: new HandlerRegistry(internalListenerHandlers()),
    commands,
    observer: requestObserver(observation, 'internal'),
    listenerName: 'internal',
    authorizer: options.internalAuthorizer,
  });
  const authenticator = saslAuthenticator(
    [weirTokenMechanism(options.internalToken, internal.trustedCertificatePrincipals)],
    authHooks,
  );
  const internalListener = new Listener(
    { ...internal, ...config.limits, authenticator, tlsOptions: tlsForListener('internal', internal) },
    internalDispatcher,
    connectionEvents(observation, 'internal'),
  );
  return { client: clientListener, internal: internalListener };
}

/** This broker as clients of one listener are told about it (Metadata, FindCoordinator). */
export function listenerEndpoint(
  config: BrokerConfig,
  listeners: BrokerListeners,
  listenerName: ListenerName,
): BrokerEndpoint {
  const settings = config.listeners[listenerName];
  const listener = listenerName === 'internal' ? listeners.internal : listeners.client;
  return {
    nodeId: config.nodeId,
    host: settings.advertisedHost ?? settings.host,
    port: settings.advertisedPort ?? listener?.port ?? 0,
    rack: null,
  };
}

/** The listeners with their bound ports, for the overview. */
export function boundListeners(
  config: BrokerConfig,
  listeners: BrokerListeners,
): { name: string; host: string; port: number }[] {
  const bound = [{ name: 'client', host: config.listeners.client.host, port: listeners.client.port }];
  if (listeners.internal !== undefined) {
    bound.push({ name: 'internal', host: config.listeners.internal.host, port: listeners.internal.port });
  }
  return bound;
}

/** Open connections on every listener. */
export function openConnectionCount(listeners: BrokerListeners): number {
  return listeners.client.connectionCount + (listeners.internal?.connectionCount ?? 0);
}
