import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import {
  Admin,
  ApiVersions,
  Client,
  type ClientOptions,
  ErrorCode,
  FindCoordinator,
  GroupConsumer,
  Metadata,
  nodeTransport,
  Producer,
  SaslAuthenticate,
  SaslHandshake,
  type TransportFactory,
  WeirError,
} from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RawConnection, rawFrame } from './raw-socket';

const run = promisify(execFile);

/** Clients made by a test, closed after it. */
const clients: Client[] = [];
const raws: RawConnection[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(raws.splice(0).map((raw) => (raw.isClosed ? undefined : raw.destroy())));
});

function client(options: ClientOptions): Client {
  const created = new Client({
    retry: { maxAttempts: 5, initialBackoffMs: 10, maxBackoffMs: 20 },
    ...options,
  });
  clients.push(created);
  return created;
}

async function raw(port: number): Promise<RawConnection> {
  const connection = await RawConnection.open(port);
  raws.push(connection);
  return connection;
}

/** A transport that counts the sockets it opens, to see how often a client tries. */
function countingTransport(): { transport: TransportFactory; opened: () => number } {
  let opened = 0;
  return {
    transport: (options) => {
      opened += 1;
      return nodeTransport(options);
    },
    opened: () => opened,
  };
}

const METADATA_ALL = {
  topics: null,
  allowAutoTopicCreation: false,
  includeClusterAuthorizedOperations: false,
  includeTopicAuthorizedOperations: false,
} as const;

describe('the internal listener (SASL WEIR-TOKEN)', () => {
  let broker: RunningBroker;
  let internalPort: number;

  beforeAll(async () => {
    broker = await startBroker({
      topics: { autoCreateEnable: false },
      groups: { initialRebalanceDelayMs: 0, offsetsTopicPartitions: 2 },
    });
    internalPort = broker.broker.internalPort!;
  });
  afterAll(async () => {
    await broker.dispose();
  });

  it('binds its own port beside the client listener', () => {
    expect(internalPort).toBeGreaterThan(0);
    expect(internalPort).not.toBe(broker.port);
    expect(broker.internalBootstrap).toBe(`127.0.0.1:${internalPort}`);
    expect(broker.broker.readiness()).toContainEqual({
      name: 'internal-listener',
      ok: true,
      detail: `port ${internalPort}`,
    });
  });

  it('serves the SDK with the right token: create and list topics, endpoints of this listener', async () => {
    const sdk = client({
      bootstrapServers: [broker.internalBootstrap],
      sasl: { mechanism: 'WEIR-TOKEN', token: broker.internalToken },
    });
    const admin = new Admin(sdk);
    const cluster = await admin.describeCluster();
    expect(cluster.brokers.map((b) => `${b.host}:${b.port}`)).toEqual([broker.internalBootstrap]);

    // CreateTopics goes to the controller at the address Metadata gave, so this also shows the
    // client never drifts to the client listener (where its SASL handshake would be refused).
    await admin.createTopics([{ name: 'internal-created', partitions: 2 }]);
    expect(await admin.listTopics()).toContain('internal-created');

    const coordinator = await sdk.send('any', FindCoordinator, { key: 'some-group', keyType: 0 });
    expect(coordinator).toMatchObject({ errorCode: ErrorCode.NONE, host: '127.0.0.1', port: internalPort });
  });

  it('produces and consumes in a group over the internal listener, every connection authenticated', async () => {
    const sdk = client({
      bootstrapServers: [broker.internalBootstrap],
      sasl: { mechanism: 'WEIR-TOKEN', token: broker.internalToken },
    });
    await new Admin(sdk).createTopics([{ name: 'internal-group', partitions: 1 }]);
    const producer = new Producer(sdk);
    await producer.send({ topic: 'internal-group', messages: [{ value: 'one' }, { value: 'two' }] });
    await producer.close();
    // The group consumer talks to its coordinator over a connection of its own.
    const consumer = new GroupConsumer(sdk, {
      groupId: 'internal-group-members',
      autoOffsetReset: 'earliest',
      autoCommit: false,
      maxWaitMs: 100,
    });
    try {
      consumer.subscribe(['internal-group']);
      const values: string[] = [];
      for (let polls = 0; values.length < 2 && polls < 100; polls++) {
        for (const record of await consumer.poll({ maxWaitMs: 100 })) values.push(String(record.value));
      }
      expect(values).toEqual(['one', 'two']);
      await consumer.commit();
    } finally {
      await consumer.close();
    }
  });

  it('still advertises the client port on the client listener', async () => {
    const sdk = client({ bootstrapServers: [broker.bootstrap] });
    const cluster = await new Admin(sdk).describeCluster();
    expect(cluster.brokers.map((b) => b.port)).toEqual([broker.port]);
  });

  it('refuses a wrong token with SASL_AUTHENTICATION_FAILED, once, without retrying', async () => {
    const counting = countingTransport();
    const sdk = client({
      bootstrapServers: [broker.internalBootstrap],
      sasl: { mechanism: 'WEIR-TOKEN', token: 'not-the-internal-token' },
      transport: counting.transport,
    });
    const failure = await new Admin(sdk).listTopics().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WeirError);
    expect((failure as WeirError).code).toBe(ErrorCode.SASL_AUTHENTICATION_FAILED);
    expect((failure as WeirError).message).not.toContain('not-the-internal-token');
    expect(counting.opened()).toBe(1);
  });

  it('closes the socket after answering a wrong token', async () => {
    const connection = await raw(internalPort);
    const handshake = await connection.request(SaslHandshake, 1, { mechanism: 'WEIR-TOKEN' });
    expect(handshake).toEqual({ errorCode: ErrorCode.NONE, mechanisms: ['WEIR-TOKEN'] });
    const answer = await connection.request(SaslAuthenticate, 1, {
      authBytes: Buffer.from('not-the-internal-token'),
    });
    expect(answer.errorCode).toBe(ErrorCode.SASL_AUTHENTICATION_FAILED);
    expect(answer.errorMessage).not.toContain('not-the-internal-token');
    expect(answer.sessionLifetimeMs).toBe(0n);
    await connection.closed();
  });

  it.each([0, 1, 2])('authenticates with SaslAuthenticate v%i, then serves Metadata', async (version) => {
    const connection = await raw(internalPort);
    await connection.request(SaslHandshake, 1, { mechanism: 'WEIR-TOKEN' });
    const answer = await connection.request(SaslAuthenticate, version, {
      authBytes: Buffer.from(broker.internalToken),
    });
    expect(answer.errorCode).toBe(ErrorCode.NONE);
    const metadata = await connection.request(Metadata, 6, METADATA_ALL);
    expect(metadata.brokers.map((b) => b.port)).toEqual([internalPort]);
  });

  it('closes a connection that sends Metadata before authenticating; others keep working', async () => {
    const bystander = await raw(broker.port);
    const intruder = await raw(internalPort);
    const versions = await intruder.request(ApiVersions, 3, {
      clientSoftwareName: 'test',
      clientSoftwareVersion: '1',
    });
    const keys = versions.apiKeys.map((entry) => entry.apiKey);
    expect(keys).toEqual(expect.arrayContaining([SaslHandshake.apiKey, SaslAuthenticate.apiKey]));
    expect(versions.apiKeys.find((entry) => entry.apiKey === SaslHandshake.apiKey)).toMatchObject({
      minVersion: 0,
      maxVersion: 1,
    });

    await intruder.send(Metadata, 6, METADATA_ALL);
    await intruder.closed();

    const metadata = await bystander.request(Metadata, 6, METADATA_ALL);
    expect(metadata.brokers.map((b) => b.port)).toEqual([broker.port]);
    // The internal listener itself still serves other connections.
    const sdk = client({
      bootstrapServers: [broker.internalBootstrap],
      sasl: { mechanism: 'WEIR-TOKEN', token: broker.internalToken },
    });
    expect(await new Admin(sdk).listTopics()).toEqual(expect.any(Array));
  });

  it('answers an unknown mechanism with UNSUPPORTED_SASL_MECHANISM and the offered list, then closes', async () => {
    const connection = await raw(internalPort);
    const answer = await connection.request(SaslHandshake, 1, { mechanism: 'PLAIN' });
    expect(answer).toEqual({ errorCode: ErrorCode.UNSUPPORTED_SASL_MECHANISM, mechanisms: ['WEIR-TOKEN'] });
    await connection.closed();
  });

  it('answers SaslAuthenticate before SaslHandshake with ILLEGAL_SASL_STATE, then closes', async () => {
    const connection = await raw(internalPort);
    const answer = await connection.request(SaslAuthenticate, 0, {
      authBytes: Buffer.from(broker.internalToken),
    });
    expect(answer.errorCode).toBe(ErrorCode.ILLEGAL_SASL_STATE);
    await connection.closed();
  });

  it('serves SaslHandshake v0: the token then goes as a raw frame and a raw empty frame answers', async () => {
    const connection = await raw(internalPort);
    const answer = await connection.request(SaslHandshake, 0, { mechanism: 'WEIR-TOKEN' });
    expect(answer.errorCode).toBe(ErrorCode.NONE);
    await connection.write(rawFrame(Buffer.from(broker.internalToken, 'utf8')));
    expect(await connection.nextFrame()).toEqual(Buffer.alloc(0));
    expect((await connection.request(Metadata, 6, METADATA_ALL)).brokers).toHaveLength(1);
  });

  it('closes a raw-frame exchange with a wrong token, without an answer', async () => {
    const connection = await raw(internalPort);
    await connection.request(SaslHandshake, 0, { mechanism: 'WEIR-TOKEN' });
    await connection.write(rawFrame(Buffer.from('not-the-token-at-all', 'utf8')));
    await connection.closed();
  });

  it('neither advertises nor serves SASL on the client listener', async () => {
    const connection = await raw(broker.port);
    const versions = await connection.request(ApiVersions, 3, {
      clientSoftwareName: 'test',
      clientSoftwareVersion: '1',
    });
    const keys = versions.apiKeys.map((entry) => entry.apiKey);
    expect(keys).not.toContain(SaslHandshake.apiKey);
    expect(keys).not.toContain(SaslAuthenticate.apiKey);
    await connection.send(SaslHandshake, 1, { mechanism: 'WEIR-TOKEN' });
    await connection.closed();
  });

  it('tells an SDK client with SASL pointed at the client listener that no mechanism is offered', async () => {
    const counting = countingTransport();
    const sdk = client({
      bootstrapServers: [broker.bootstrap],
      sasl: { mechanism: 'WEIR-TOKEN', token: broker.internalToken },
      transport: counting.transport,
    });
    const failure = await sdk.connect().catch((error: unknown) => error);
    expect((failure as WeirError).code).toBe(ErrorCode.UNSUPPORTED_SASL_MECHANISM);
    expect(counting.opened()).toBe(1);
  });

  it('fails kcat without SASL against the internal listener', async () => {
    const outcome = await run(
      'kcat',
      ['-b', broker.internalBootstrap, '-X', 'broker.address.family=v4', '-L', '-m', '3'],
      { timeout: 30_000 },
    ).then(
      ({ stdout }) => ({ failed: false, output: stdout }),
      (error: { code?: number; stdout?: string; stderr?: string }) => ({
        failed: true,
        output: `${error.stdout ?? ''}${error.stderr ?? ''}`,
      }),
    );
    expect(outcome.failed).toBe(true);
    expect(outcome.output).not.toContain(`broker 0 at 127.0.0.1:${internalPort}`);
    // The same kcat lists the client listener, so the failure is the authentication's.
    const { stdout } = await run(
      'kcat',
      ['-b', broker.bootstrap, '-X', 'broker.address.family=v4', '-L', '-m', '10'],
      {
        timeout: 30_000,
      },
    );
    expect(stdout).toContain(`broker 0 at 127.0.0.1:${broker.port}`);
  });
});
