import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ErrorCode, isRetriable, WriteTxnMarkers } from '@weir/protocol';
import {
  type RunningBroker,
  startBroker,
  type TemporaryDirectory,
  temporaryDirectory,
} from '@weir/test-broker';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { InterBrokerClient } from '../src/interbroker/inter-broker-client';
import { RoutedMembershipCheck } from '../src/interbroker/routed-membership-check';
import { RoutedTransactionMarkers } from '../src/interbroker/routed-transaction-markers';
import { ClusterView } from '../src/metadata/cluster-view';
import type { PlacementChange } from '../src/metadata/metadata-store';
import { TRANSACTION_STATE_TOPIC } from '../src/txn/transaction-log';
import { pollUntil } from './group-fixtures';
import { weirFailure } from './internal-fixtures';
import { RawClient } from './raw-client';
import { TxnWire } from './txn-fixtures';

const SECRET = 'the-peers-test-cluster-secret';
/** This process plays a broker that is neither of the two peers, so every call goes over the wire. */
const SELF = 9;
const LIVE = 1;
const DOWN = 2;

/** A port nothing listens on: bound once, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function brokerChange(brokerId: number, internalPort: number): PlacementChange {
  return {
    kind: 'broker',
    brokerId,
    broker: {
      brokerId,
      rack: null,
      listeners: {
        client: { host: '127.0.0.1', port: 1 },
        internal: { host: '127.0.0.1', port: internalPort },
      },
      sessionId: `session-${brokerId}`,
      registeredAtMs: 0,
    },
  };
}

function topicChange(name: string, partitionCount: number): PlacementChange {
  return {
    kind: 'topic',
    name,
    topic: { name, topicId: `id-${name}`, partitionCount, configs: {}, internal: false, createdAtMs: 0 },
  };
}

function leaderChange(topic: string, partition: number, leader: number): PlacementChange {
  const replicas = leader < 0 ? [LIVE] : [leader];
  return {
    kind: 'assignment',
    topic,
    partition,
    assignment: { topic, partition, replicas, leader, leaderEpoch: 0, isr: replicas, version: 0 },
  };
}

/**
 * The inter-broker client and the two routed transaction paths over real sockets, against a real
 * broker (the live peer) and a closed port (a peer that is down), with placement given to a real
 * cluster view as the metadata store's watch would.
 */
describe('inter-broker calls to live and dead peers', () => {
  let directory: TemporaryDirectory;
  let secretFile: string;
  let running: RunningBroker;
  let downPort: number;
  let revision = 0;
  const clients: InterBrokerClient[] = [];
  const view = new ClusterView(SELF);
  const apply = (...changes: PlacementChange[]) => view.apply(changes, ++revision);

  const newClient = (token = SECRET) => {
    const client = new InterBrokerClient({
      endpointOf: (brokerId) => view.endpoint(brokerId, 'internal'),
      credentials: () => ({ sasl: { mechanism: 'WEIR-TOKEN', token }, tls: undefined }),
      clientId: 'weir-broker-9',
      requestTimeoutMs: 5000,
      connectTimeoutMs: 2000,
      nowMs: () => performance.now(),
    });
    clients.push(client);
    return client;
  };

  const startLive = (port = 0) =>
    startBroker(
      {
        topics: { autoCreateEnable: false },
        transactions: { stateTopicPartitions: 1 },
        cluster: { interBrokerAuthentication: 'secret', secretFile },
        listeners: { internal: { port } },
      },
      join(directory.path, 'live'),
    );

  beforeAll(async () => {
    directory = await temporaryDirectory('weir-peers-');
    secretFile = join(directory.path, 'cluster.secret');
    await writeFile(secretFile, SECRET, { mode: 0o600 });
    running = await startLive();
    await running.broker.services.topics.createTopic({ name: 'peers', partitionCount: 2, configs: {} });
    downPort = await closedPort();
    apply(
      brokerChange(LIVE, running.broker.internalPort!),
      brokerChange(DOWN, downPort),
      topicChange('peers', 2),
    );
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });
  afterAll(async () => {
    await running?.stop();
    await directory?.cleanup();
  });

  const abortMarker = (producerId: bigint, partitions: number[]) => ({
    markers: [
      {
        producerId,
        producerEpoch: 0,
        transactionResult: false,
        topics: [{ name: 'peers', partitionIndexes: partitions }],
        coordinatorEpoch: 0,
      },
    ],
  });

  it('answers a dead peer with a retriable NETWORK_EXCEPTION, at once while it backs off, and serves the live one', async () => {
    const client = newClient();
    const first = await weirFailure(client.send(DOWN, WriteTxnMarkers, abortMarker(1n, [0])));
    expect(first.code).toBe(ErrorCode.NETWORK_EXCEPTION);
    expect(isRetriable(first.code)).toBe(true);
    const again = await weirFailure(client.send(DOWN, WriteTxnMarkers, abortMarker(1n, [0])));
    expect(again.code).toBe(ErrorCode.NETWORK_EXCEPTION);
    expect(again.message).toContain('next attempt');
    const unknown = await weirFailure(client.send(42, WriteTxnMarkers, abortMarker(1n, [0])));
    expect(unknown.code).toBe(ErrorCode.NETWORK_EXCEPTION);
    const answer = await client.send(LIVE, WriteTxnMarkers, abortMarker(1n, [0]));
    expect(answer.markers[0]!.topics[0]!.partitions).toEqual([
      { partitionIndex: 0, errorCode: ErrorCode.NONE },
    ]);
  });

  it('refuses a wrong cluster secret as an authentication failure, not a dead peer; the broker serves on', async () => {
    const wrong = await weirFailure(
      newClient('not-the-cluster-secret').send(LIVE, WriteTxnMarkers, abortMarker(2n, [0])),
    );
    expect(wrong.code).toBe(ErrorCode.SASL_AUTHENTICATION_FAILED);
    expect(isRetriable(wrong.code)).toBe(false);
    const answer = await newClient().send(LIVE, WriteTxnMarkers, abortMarker(2n, [0]));
    expect(answer.markers[0]!.topics[0]!.partitions[0]!.errorCode).toBe(ErrorCode.NONE);
  });

  it('routes markers to the leader the view names at each attempt; a partition without a leader waits', async () => {
    apply(leaderChange('peers', 0, LIVE), leaderChange('peers', 1, -1));
    const endBefore = running.broker
      .partitionStats()
      .find((stats) => stats.topic === 'peers' && stats.partition === 1)?.logEndOffset;
    let attempts = 0;
    const markers = new RoutedTransactionMarkers({
      view,
      local: {
        writeMarkers: () => {
          throw new Error('every leader is remote here');
        },
      },
      peers: newClient(),
      isRemote: () => true,
      retryWindowMs: 10_000,
      initialBackoffMs: 1,
      maxBackoffMs: 1,
      nowMs: () => performance.now(),
      // Between attempts the controller gives partition 1 a leader, first the dead peer, then the live one.
      delay: async () => {
        attempts += 1;
        apply(leaderChange('peers', 1, attempts === 1 ? DOWN : LIVE));
      },
      running: () => true,
    });
    const written = await markers.writeMarkers({
      producerId: 3n,
      producerEpoch: 0,
      result: 'abort',
      coordinatorEpoch: 0,
      partitions: [
        { topic: 'peers', partition: 0 },
        { topic: 'peers', partition: 1 },
        { topic: 'no-such-topic', partition: 0 },
      ],
    });
    expect(written).toEqual([
      { topic: 'peers', partition: 0, errorCode: ErrorCode.NONE },
      { topic: 'peers', partition: 1, errorCode: ErrorCode.NONE },
      { topic: 'no-such-topic', partition: 0, errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION },
    ]);
    expect(attempts).toBe(2);
    const endAfter = running.broker
      .partitionStats()
      .find((stats) => stats.topic === 'peers' && stats.partition === 1)?.logEndOffset;
    expect(Number(endAfter)).toBe(Number(endBefore) + 1);
  });

  it('answers a leader that stays down with its retriable code once the retry window is over', async () => {
    apply(leaderChange('peers', 1, DOWN));
    const markers = new RoutedTransactionMarkers({
      view,
      local: { writeMarkers: async () => [] },
      peers: newClient(),
      isRemote: () => true,
      retryWindowMs: 300,
      initialBackoffMs: 20,
      maxBackoffMs: 50,
      nowMs: () => performance.now(),
      delay: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      running: () => true,
    });
    const written = await markers.writeMarkers({
      producerId: 4n,
      producerEpoch: 0,
      result: 'commit',
      coordinatorEpoch: 0,
      partitions: [{ topic: 'peers', partition: 1 }],
    });
    expect(written).toEqual([{ topic: 'peers', partition: 1, errorCode: ErrorCode.NETWORK_EXCEPTION }]);
  });

  it("asks the coordinator of the producer's transactional id; one that cannot be reached is unavailable", async () => {
    const raw = await RawClient.connect(running.bootstrap);
    try {
      const wire = new TxnWire(raw);
      const old = await wire.claim('peers-tx');
      const claim = await wire.claim('peers-tx');
      expect(await wire.addPartitions(claim, 'peers', [0])).toEqual([ErrorCode.NONE]);
      const membership = new RoutedMembershipCheck({
        view,
        local: {
          membership: () => {
            throw new Error('this process coordinates nothing');
          },
        },
        peers: newClient(),
        isRemote: () => true,
      });
      const query = { ...claim, topic: 'peers', partition: 0 };
      apply(topicChange(TRANSACTION_STATE_TOPIC, 1), leaderChange(TRANSACTION_STATE_TOPIC, 0, DOWN));
      expect(await membership.membership(query)).toBe('unavailable');
      apply(leaderChange(TRANSACTION_STATE_TOPIC, 0, -1));
      expect(await membership.membership(query)).toBe('unavailable');
      apply(leaderChange(TRANSACTION_STATE_TOPIC, 0, LIVE));
      expect(await membership.membership(query)).toBe('member');
      expect(await membership.membership({ ...query, partition: 1 })).toBe('not-member');
      expect(await membership.membership({ ...query, producerEpoch: old.producerEpoch })).toBe('fenced');
    } finally {
      await raw.close();
    }
  });

  it("dials from the broker's own address when one is given", async () => {
    const callers: string[] = [];
    const server = createServer((socket) => {
      callers.push(socket.remoteAddress ?? '');
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const address = server.address();
      if (address === null || typeof address === 'string') throw new Error('no port');
      apply(brokerChange(3, address.port));
      const client = new InterBrokerClient({
        endpointOf: (brokerId) => view.endpoint(brokerId, 'internal'),
        credentials: () => ({ sasl: { mechanism: 'WEIR-TOKEN', token: SECRET }, tls: undefined }),
        clientId: 'weir-broker-9',
        requestTimeoutMs: 5000,
        connectTimeoutMs: 2000,
        localAddress: '127.0.0.9',
        nowMs: () => performance.now(),
      });
      clients.push(client);
      // The stand-in peer hangs up at once: the call fails, but not before it saw the caller.
      expect((await weirFailure(client.send(3, WriteTxnMarkers, abortMarker(6n, [0])))).code).toBe(
        ErrorCode.NETWORK_EXCEPTION,
      );
      expect(callers).toEqual(['127.0.0.9']);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('reconnects to a peer that comes back, once its backoff has passed', async () => {
    const client = newClient();
    expect((await client.send(LIVE, WriteTxnMarkers, abortMarker(5n, [0]))).markers).toHaveLength(1);
    const port = running.broker.internalPort!;
    await running.stop();
    const down = await weirFailure(client.send(LIVE, WriteTxnMarkers, abortMarker(5n, [0])));
    expect(isRetriable(down.code)).toBe(true);
    running = await startLive(port);
    const answer = await pollUntil(
      () => client.send(LIVE, WriteTxnMarkers, abortMarker(5n, [0])).catch(() => undefined),
      'the restarted peer answering',
    );
    expect(answer.markers[0]!.topics[0]!.partitions[0]!.errorCode).toBe(ErrorCode.NONE);
  });
});
