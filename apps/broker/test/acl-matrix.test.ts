import { type Client, ErrorCode } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListenerName } from '../src/metadata/cluster-view';
import { clientListenerHandlers, internalListenerHandlers } from '../src/server/api-table';
import type { ApiHandler } from '../src/server/handler';
import {
  clientAs,
  errorCodesIn,
  internalClientAs,
  listenerClient,
  PRINCIPAL_OF,
  type PrincipalKind,
  refusedConnections,
  requestBehindCredentials,
  securePlaintextConfig,
  secureSaslConfig,
  seedWorld,
  WRONG_CREDENTIALS,
  worldSnapshot,
} from './acl-fixtures';
import { ROWS, type Row } from './acl-matrix-rows';
import { weirFailure } from './internal-fixtures';

const AUTHORIZATION_FAILURES: ReadonlySet<number> = new Set([
  ErrorCode.TOPIC_AUTHORIZATION_FAILED,
  ErrorCode.GROUP_AUTHORIZATION_FAILED,
  ErrorCode.CLUSTER_AUTHORIZATION_FAILED,
  ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED,
]);

/** Served without authorization: they come before it (or are it). */
const UNAUTHORIZED_APIS = new Set(['ApiVersions', 'SaslHandshake', 'SaslAuthenticate']);

/** Every API either listener serves, by key. */
const SERVED = [...clientListenerHandlers(true), ...internalListenerHandlers()];
const HANDLERS = new Map(SERVED.map((handler) => [handler.api.apiKey, handler as ApiHandler]));
/** The Kafka APIs, which both listeners serve; the rest only the internal listener serves. */
const CLIENT_API_KEYS = new Set(clientListenerHandlers(false).map((handler) => handler.api.apiKey));

function handlerFor(row: Row): ApiHandler {
  const handler = HANDLERS.get(row.api.apiKey);
  if (handler === undefined) throw new Error(`no handler serves ${row.api.name}`);
  return handler;
}

/** The listeners that serve a row's API. */
function listenersOf(row: Row): ListenerName[] {
  return CLIENT_API_KEYS.has(row.api.apiKey) ? ['client', 'internal'] : ['internal'];
}

/**
 * Every row (acl-matrix-rows.ts) × every principal, on the secure profile, over the wire: Kafka
 * APIs on the client listener authenticated as the principal; the internal listener's APIs on the
 * internal listener acting as the principal (WEIR-TOKEN with the principal as authzid), whose ACLs
 * then decide, not the bare token's super-user rule. Then, on every listener that serves the row:
 * without credentials, and with wrong ones, the request is never executed.
 */
describe('authorization matrix (secure profile: allowEveryoneIfNoAclFound false)', () => {
  let sasl: RunningBroker;
  let plaintext: RunningBroker;
  /** Each principal's client of the client listener (Kafka rows) and of the internal one. */
  const clients = new Map<PrincipalKind, Client>();
  const internalClients = new Map<PrincipalKind, Client>();

  beforeAll(async () => {
    sasl = await startBroker(secureSaslConfig());
    plaintext = await startBroker(securePlaintextConfig());
    for (const running of [sasl, plaintext]) {
      await seedWorld(running.broker);
      // The transactional id the transaction rows act on, there from the start on both brokers, so
      // that ListTransactions has something to hide from every principal, whatever the rows' order.
      await running.broker.services.transactions.initProducerId('tx', 60_000);
    }
    clients.set('anonymous', clientAs(plaintext, 'anonymous'));
    // The PLAINTEXT broker's clients are User:ANONYMOUS: its internal client acts as that.
    internalClients.set('anonymous', internalClientAs(plaintext, PRINCIPAL_OF.anonymous));
    for (const kind of ['no-acl', 'granted', 'super'] as const) {
      clients.set(kind, clientAs(sasl, kind));
      internalClients.set(kind, internalClientAs(sasl, PRINCIPAL_OF[kind]));
    }
  }, 60_000);

  afterAll(async () => {
    await Promise.all([...clients.values(), ...internalClients.values()].map((client) => client.close()));
    await sasl?.dispose();
    await plaintext?.dispose();
  });

  it('has a row for every API either listener serves', () => {
    const served = SERVED.map((handler) => handler.api.name);
    const covered = new Set(ROWS.map((row) => row.api.name));
    expect(served.filter((name) => !UNAUTHORIZED_APIS.has(name) && !covered.has(name))).toEqual([]);
  });

  /**
   * The row's request from one principal, over the wire: on the SASL broker, or on the PLAINTEXT one
   * (anonymous); on the client listener for Kafka APIs, else on the internal listener acting as the
   * principal.
   */
  const ask = (row: Row, kind: PrincipalKind): Promise<unknown> => {
    const client = (CLIENT_API_KEYS.has(row.api.apiKey) ? clients : internalClients).get(kind)!;
    return client.send('any', row.api, row.request);
  };

  describe.each(ROWS)('$label', (row) => {
    it.each(['anonymous', 'no-acl'] as const)('%s is denied and changes nothing', async (kind) => {
      const broker = (kind === 'anonymous' ? plaintext : sasl).broker;
      const before = worldSnapshot(broker);
      const response = await ask(row, kind);
      if ('denied' in row.expect) {
        const codes = errorCodesIn(response).filter((code) => code !== ErrorCode.NONE);
        expect(codes.length).toBeGreaterThan(0);
        expect(new Set(codes)).toEqual(new Set([row.expect.denied]));
      } else {
        expect(row.expect.shows(response)).toBe(false);
      }
      expect(worldSnapshot(broker)).toBe(before);
    });

    it('granted is allowed with the needed ACLs', async () => {
      await sasl.broker.services.acls.createAcls(row.grants.map((binding) => ({ binding })));
      try {
        const response = await ask(row, 'granted');
        expect(errorCodesIn(response).filter((code) => AUTHORIZATION_FAILURES.has(code))).toEqual([]);
        if ('shows' in row.expect) expect(row.expect.shows(response)).toBe(true);
      } finally {
        await sasl.broker.services.acls.deleteAcls(row.grants);
      }
    });

    it('super is allowed', async () => {
      const response = await ask(row, 'super');
      expect(errorCodesIn(response).filter((code) => AUTHORIZATION_FAILURES.has(code))).toEqual([]);
      if ('shows' in row.expect) expect(row.expect.shows(response)).toBe(true);
    });

    // Before authenticating, a SASL listener serves ApiVersions and the SASL APIs only: anything
    // else closes the connection unanswered. The client here skips SASL (on the internal listener,
    // the WEIR-TOKEN exchange) and sends the row's request right after ApiVersions.
    it.each(listenersOf(row))(
      'without credentials on the %s listener: closed unanswered, changes nothing',
      async (listener) => {
        const before = worldSnapshot(sasl.broker);
        const refusedBefore = await refusedConnections(sasl, 'unauthenticated');
        const client = listenerClient(sasl, listener);
        try {
          const failure = await weirFailure(client.send('any', row.api, row.request));
          expect(failure.code).toBe(ErrorCode.NETWORK_EXCEPTION);
        } finally {
          await client.close();
        }
        // Closed by the broker as an unauthenticated request, not for anything else.
        expect(await refusedConnections(sasl, 'unauthenticated')).toBe(refusedBefore + 1);
        expect(worldSnapshot(sasl.broker)).toBe(before);
      },
    );

    // The super user's name with a wrong password (client listener, PLAIN), a wrong token
    // (internal listener). Through the SDK, which stops at the refusal; then from a client that
    // sends the request right behind its credentials without waiting for the verdict.
    it.each(listenersOf(row))(
      'with wrong credentials on the %s listener: refused, never executed, changes nothing',
      async (listener) => {
        const before = worldSnapshot(sasl.broker);
        const failedBefore = await refusedConnections(sasl, 'authentication_failed');
        const client = listenerClient(sasl, listener, WRONG_CREDENTIALS[listener]);
        try {
          const failure = await weirFailure(client.send('any', row.api, row.request));
          expect(failure.code).toBe(ErrorCode.SASL_AUTHENTICATION_FAILED);
        } finally {
          await client.close();
        }
        const pushed = await requestBehindCredentials(
          listener === 'client' ? sasl.port : sasl.broker.internalPort!,
          WRONG_CREDENTIALS[listener],
          row.api,
          handlerFor(row).versions.max,
          row.request,
        );
        expect(pushed).toEqual({
          authenticateErrorCode: ErrorCode.SASL_AUTHENTICATION_FAILED,
          answered: false,
          closed: true,
        });
        expect(await refusedConnections(sasl, 'authentication_failed')).toBe(failedBefore + 2);
        expect(worldSnapshot(sasl.broker)).toBe(before);
      },
    );
  });
});
