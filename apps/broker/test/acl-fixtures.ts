import {
  type AclBinding,
  type AclOperation,
  type AclResourceType,
  type ApiSchema,
  Client,
  encodeRecordBatch,
  MATCH_ALL_ACLS,
  type RequestOf,
  SaslAuthenticate,
  SaslHandshake,
  type SaslOptions,
  saslClientExchange,
} from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterEach } from 'vitest';
import type { Broker } from '../src/broker';
import type { ListenerName } from '../src/metadata/cluster-view';
import { RawConnection } from './raw-socket';

/** The principals of the authorization matrix, as S2's SASL users (and anonymous) present them. */
export type PrincipalKind = 'anonymous' | 'no-acl' | 'granted' | 'super';

export const PASSWORDS = {
  admin: 'admin-acl-secret-5e2b',
  nobody: 'nobody-secret-1f3a',
  granted: 'granted-secret-9c4d',
};

/** The principal each kind authenticates as. */
export const PRINCIPAL_OF: Readonly<Record<PrincipalKind, string>> = {
  anonymous: 'User:ANONYMOUS',
  'no-acl': 'User:nobody',
  granted: 'User:granted',
  super: 'User:admin',
};

/**
 * The secure profile over SASL: ACLs required, the bootstrap admin a super user. Failed
 * authentications are not slowed down (`security.authFailureDelayMs` 0 turns the throttle off):
 * the matrix fails hundreds of them on purpose from 127.0.0.1, and with the default 1 s base,
 * doubling up to 16 s, that would take an hour. What a failed authentication lets through does not
 * depend on the delay; the delays themselves are tested in auth-failure-throttle.test.ts and
 * sasl-clients.test.ts.
 */
export function secureSaslConfig() {
  return {
    listeners: { client: { securityProtocol: 'SASL_PLAINTEXT' as const } },
    security: {
      bootstrapAdmin: { username: 'admin', password: PASSWORDS.admin },
      superUsers: ['User:admin'],
      allowEveryoneIfNoAclFound: false,
      authFailureDelayMs: 0,
    },
  };
}

/** The secure profile on a PLAINTEXT listener, where everybody is User:ANONYMOUS. */
export function securePlaintextConfig() {
  return { security: { allowEveryoneIfNoAclFound: false } };
}

/** A client of the broker as one principal: SASL PLAIN for users, nothing for anonymous. */
export function clientAs(running: RunningBroker, kind: PrincipalKind): Client {
  const username = kind === 'no-acl' ? 'nobody' : kind === 'super' ? 'admin' : 'granted';
  return new Client({
    bootstrapServers: [running.bootstrap],
    clientId: `acl-${kind}`,
    ...(kind === 'anonymous'
      ? {}
      : { sasl: { mechanism: 'PLAIN' as const, username, password: PASSWORDS[username] } }),
    retry: { maxAttempts: 1, initialBackoffMs: 10 },
  });
}

/**
 * A client of the internal listener as the console connects: the bare token (the internal super
 * user), or acting for the principal `actAs` (the WEIR-TOKEN authzid), whose ACLs then decide.
 */
export function internalClientAs(running: RunningBroker, actAs?: string): Client {
  return new Client({
    bootstrapServers: [running.internalBootstrap],
    clientId: actAs === undefined ? 'acl-internal' : 'acl-internal-act-as',
    sasl: { mechanism: 'WEIR-TOKEN', token: running.internalToken, ...(actAs ? { actAs } : {}) },
    retry: { maxAttempts: 1, initialBackoffMs: 10 },
  });
}

/** A broker of the secure SASL profile for each test, and the clients the test opens on it. */
export interface SecureBrokerPerTest {
  /**
   * Starts the test's broker ({@link secureSaslConfig}, `allowEveryoneIfNoAclFound` false unless
   * given) and seeds the world ({@link seedWorld}).
   */
  start(allowEveryoneIfNoAclFound?: boolean): Promise<RunningBroker>;
  /** Stops the test's broker and starts it again on its data directory, with what it stored. */
  restart(): Promise<RunningBroker>;
  /** {@link clientAs} on the test's broker, closed after the test. */
  clientAs(kind: PrincipalKind): Client;
  /** {@link internalClientAs} on the test's broker, closed after the test. */
  internalClientAs(actAs?: string): Client;
}

/**
 * Call in a describe block: each test there starts its own secure broker through the answer, and
 * after it the clients it opened are closed and the broker is disposed.
 */
export function secureBrokerPerTest(): SecureBrokerPerTest {
  let running: RunningBroker | undefined;
  /** The broker that made the data directory; a restarted one only borrows it. */
  let owner: RunningBroker | undefined;
  let config = secureSaslConfig();
  const clients: Client[] = [];
  afterEach(async () => {
    try {
      await Promise.all(clients.splice(0).map((client) => client.close()));
    } finally {
      // The broker in use stops first; then the owner's dispose removes the directory.
      await running?.dispose();
      await owner?.dispose();
      running = undefined;
      owner = undefined;
    }
  });
  function current(): RunningBroker {
    if (running === undefined) throw new Error('start() the broker first');
    return running;
  }
  function closedAfterTheTest(client: Client): Client {
    clients.push(client);
    return client;
  }
  return {
    async start(allowEveryoneIfNoAclFound = false) {
      const secure = secureSaslConfig();
      config = { ...secure, security: { ...secure.security, allowEveryoneIfNoAclFound } };
      running = await startBroker(config);
      owner = running;
      await seedWorld(running.broker);
      return running;
    },
    async restart() {
      const stopped = current();
      await stopped.stop();
      running = await startBroker(config, stopped.dataDir);
      return running;
    },
    clientAs: (kind) => closedAfterTheTest(clientAs(current(), kind)),
    internalClientAs: (actAs) => closedAfterTheTest(internalClientAs(current(), actAs)),
  };
}

/**
 * Credentials that must fail on each listener of the SASL broker, and would be worth the most if
 * they did not: the super user's name with a wrong password (PLAIN), a wrong internal token (whose
 * holder would be the internal super user).
 */
export const WRONG_CREDENTIALS: Readonly<Record<ListenerName, SaslOptions>> = {
  client: { mechanism: 'PLAIN', username: 'admin', password: 'not-the-admin-password-0d7e' },
  internal: { mechanism: 'WEIR-TOKEN', token: 'not-the-internal-token-4c2a' },
};

/**
 * A client of one listener of the SASL broker that authenticates with `sasl`, or (undefined) not
 * at all: it sends ApiVersions, then its requests.
 */
export function listenerClient(running: RunningBroker, listener: ListenerName, sasl?: SaslOptions): Client {
  return new Client({
    bootstrapServers: [listener === 'client' ? running.bootstrap : running.internalBootstrap],
    clientId: `acl-${listener}-${sasl === undefined ? 'unauthenticated' : 'wrong-credentials'}`,
    ...(sasl === undefined ? {} : { sasl }),
    retry: { maxAttempts: 1, initialBackoffMs: 10 },
  });
}

/**
 * A client that does not wait for the verdict on its credentials: after SaslHandshake it writes
 * the SaslAuthenticate of `sasl` and a request of `api` together, as if it had authenticated.
 * Returns the SaslAuthenticate answer's error code, whether the request behind it was answered,
 * and whether the broker then closed the connection.
 */
export async function requestBehindCredentials<A extends ApiSchema>(
  port: number,
  sasl: SaslOptions,
  api: A,
  version: number,
  request: RequestOf<A>,
): Promise<{ authenticateErrorCode: number; answered: boolean; closed: boolean }> {
  const connection = await RawConnection.open(port);
  try {
    const handshake = await connection.request(SaslHandshake, 1, { mechanism: sasl.mechanism });
    if (handshake.errorCode !== 0) throw new Error(`SaslHandshake failed with ${handshake.errorCode}`);
    const authenticate = connection.frame(SaslAuthenticate, 1, {
      authBytes: saslClientExchange(sasl).initialBytes(),
    });
    const pushed = connection.frame(api, version, request);
    await connection.write(Buffer.concat([authenticate.bytes, pushed.bytes]));
    const answer = await connection.receive(SaslAuthenticate, 1, authenticate.correlationId);
    // The next frame would be the request's answer; a close rejects the wait at once.
    const answered = await connection.nextFrame().then(
      () => true,
      () => false,
    );
    return { authenticateErrorCode: answer.errorCode, answered, closed: connection.isClosed };
  } finally {
    if (!connection.isClosed) await connection.destroy();
  }
}

/** How many connections the broker closed for `reason` (`unauthenticated`, `authentication_failed`). */
export async function refusedConnections(
  running: RunningBroker,
  reason: 'unauthenticated' | 'authentication_failed',
): Promise<number> {
  const { values } = await running.metrics.connectionsRejectedTotal.get();
  return values
    .filter((value) => value.labels.reason === reason)
    .reduce((sum, value) => sum + value.value, 0);
}

/** An ALLOW for User:granted from any host. */
export function grant(
  resourceType: AclResourceType,
  resourceName: string,
  operation: AclOperation,
  patternType: 'LITERAL' | 'PREFIXED' = 'LITERAL',
): AclBinding {
  return {
    resourceType,
    resourceName,
    patternType,
    principal: PRINCIPAL_OF.granted,
    host: '*',
    operation,
    permission: 'ALLOW',
  };
}

export const cluster = (operation: AclOperation) => grant('CLUSTER', 'kafka-cluster', operation);

/** Three records, optionally from an idempotent producer. */
export function batch(producerId = -1n): Buffer {
  return encodeRecordBatch({
    records: [0, 1, 2].map((index) => ({
      key: Buffer.from(`k${index}`),
      value: Buffer.from(`v${index}`),
      timestampMs: Date.now(),
    })),
    producerId,
    producerEpoch: producerId >= 0n ? 0 : -1,
    baseSequence: producerId >= 0n ? 0 : -1,
  });
}

/**
 * The world every matrix row acts on, made through the broker's services (no authorization involved):
 * topics `data` (3 records, group `grp` committed at 1), `victim` and `grow`; group `doomed`;
 * users for the SASL principals.
 */
export async function seedWorld(broker: Broker): Promise<void> {
  const { services } = broker;
  await services.users.ensureUser('nobody', PASSWORDS.nobody);
  await services.users.ensureUser('granted', PASSWORDS.granted);
  for (const name of ['data', 'victim', 'grow']) {
    await services.topics.createTopic({ name, partitionCount: 1, configs: {} });
  }
  await services.replicas.appendRecords({
    topic: 'data',
    partition: 0,
    records: batch(),
    acks: -1,
    timeoutMs: 30_000,
    transactionalId: null,
  });
  for (const groupId of ['grp', 'doomed']) {
    await services.groups.commit({
      groupId,
      generationId: -1,
      memberId: '',
      groupInstanceId: null,
      retentionTimeMs: -1,
      apiVersion: 7,
      topics: [
        {
          name: 'data',
          partitions: [
            { partitionIndex: 0, committedOffset: 1, committedLeaderEpoch: -1, committedMetadata: '' },
          ],
        },
      ],
    });
  }
}

/**
 * Everything a request could change, read through the broker's services: topics with their partition
 * counts, configs and offsets; groups with their state and committed offsets; ACLs; users;
 * transactions; client quotas. Two equal snapshots around a denied request show it changed nothing.
 */
export function worldSnapshot(broker: Broker): string {
  const { services } = broker;
  const topics = services.topicDescriptions.listTopics({ includeInternal: false }).map((topic) => ({
    name: topic.name,
    partitions: topic.partitions.length,
    configs: topic.configs,
  }));
  const logs = broker
    .partitionStats()
    .filter((stats) => !stats.topic.startsWith('__'))
    .map((stats) => [stats.topic, stats.partition, stats.logStartOffset, stats.logEndOffset]);
  const groups = services.groups.listGroups().groups.map((group) => ({
    ...group,
    offsets: services.groups.fetchOffsets(group.groupId, null),
  }));
  return JSON.stringify(
    {
      topics,
      logs: logs.sort(),
      groups: groups.sort((left, right) => left.groupId.localeCompare(right.groupId)),
      acls: services.acls.describeAcls(MATCH_ALL_ACLS),
      users: services.users.listUsers(),
      transactions: services.transactions.list(),
      clientQuotas: services.quotas.describe([], false),
    },
    (_key, value) => (typeof value === 'bigint' ? value.toString() : value),
  );
}

/** Every error code in a response, wherever it sits (`errorCode`, `partitionErrorCode`). */
export function errorCodesIn(value: unknown, found: number[] = []): number[] {
  if (Array.isArray(value)) {
    for (const item of value) errorCodesIn(item, found);
  } else if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
    for (const [key, field] of Object.entries(value)) {
      if ((key === 'errorCode' || key === 'partitionErrorCode') && typeof field === 'number')
        found.push(field);
      else if (typeof field === 'object') errorCodesIn(field, found);
    }
  }
  return found;
}
