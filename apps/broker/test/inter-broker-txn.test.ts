import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ErrorCode, isRetriable } from '@weir/protocol';
import {
  type RunningBroker,
  startBroker,
  type TemporaryDirectory,
  temporaryDirectory,
} from '@weir/test-broker';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from './group-fixtures';
import { RawClient } from './raw-client';
import { makeTlsFiles, type TlsFiles } from './tls-fixtures';
import { TxnWire } from './txn-fixtures';

/** How many requests of `api` the broker has received, from its metrics. */
async function requestCount(running: RunningBroker, api: string): Promise<number> {
  const metric = await running.metrics.requestsTotal.get();
  return metric.values
    .filter((value) => value.labels.api === api)
    .reduce((sum, value) => sum + value.value, 0);
}

/**
 * A kafkajs transaction over three partitions on a broker that treats itself as a remote peer
 * (`routeInterBrokerCallsToSelf`): the produce path asks the coordinator over the internal
 * listener (WeirVerifyTransactionMembership) and the coordinator sends WriteTxnMarkers to the
 * leaders there, both over real sockets, authenticated as the broker principal with the cluster
 * secret. The 3-broker version of this test comes with the cluster harness.
 */
describe('transactions with markers and membership checks over the inter-broker path', () => {
  let directory: TemporaryDirectory;
  let running: RunningBroker;
  let kafka: Kafka;

  beforeAll(async () => {
    directory = await temporaryDirectory('weir-cluster-secret-');
    const secretFile = join(directory.path, 'cluster.secret');
    await writeFile(secretFile, 'a-cluster-secret-for-the-loopback-test\n', { mode: 0o600 });
    running = await startBroker(
      {
        topics: { autoCreateEnable: false },
        groups: { initialRebalanceDelayMs: 0, offsetsTopicPartitions: 1 },
        transactions: { stateTopicPartitions: 2 },
        cluster: { interBrokerAuthentication: 'secret', secretFile },
        // Only super users (the broker principal among them) may do anything: the markers and the
        // membership checks pass because the secret makes the caller a broker.
        security: { allowEveryoneIfNoAclFound: false, superUsers: ['User:ANONYMOUS'] },
      },
      undefined,
      { routeInterBrokerCallsToSelf: true },
    );
    kafka = new Kafka({
      clientId: 'inter-broker-txn',
      brokers: [running.bootstrap],
      logLevel: logLevel.NOTHING,
    });
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: 'spread', numPartitions: 3 }] });
    await admin.disconnect();
  });
  afterAll(async () => {
    await running?.dispose();
    await directory?.cleanup();
  });

  it('commits and aborts; read_committed sees the committed records only', async () => {
    const markersBefore = await requestCount(running, 'WriteTxnMarkers');
    const checksBefore = await requestCount(running, 'WeirVerifyTransactionMembership');
    const offsetCommitsBefore = await requestCount(running, 'TxnOffsetCommit');
    const appliedBefore = await requestCount(running, 'WeirApplyTxnOffsets');
    const producer = kafka.producer({
      transactionalId: 'spread-tx',
      idempotent: true,
      maxInFlightRequests: 1,
    });
    await producer.connect();
    try {
      const committed = await producer.transaction();
      await committed.send({
        topic: 'spread',
        messages: [0, 1, 2].map((partition) => ({ partition, value: `commit-${partition}` })),
      });
      await committed.commit();
      const withOffsets = await producer.transaction();
      await withOffsets.send({ topic: 'spread', messages: [{ partition: 0, value: 'commit-offsets' }] });
      // TxnOffsetCommit goes to the group's coordinator, which forwards it to the transaction's.
      await withOffsets.sendOffsets({
        consumerGroupId: 'spread-offsets',
        topics: [{ topic: 'spread', partitions: [{ partition: 1, offset: '7' }] }],
      });
      await withOffsets.commit();
      const aborted = await producer.transaction();
      await aborted.send({
        topic: 'spread',
        messages: [0, 1, 2].map((partition) => ({ partition, value: `abort-${partition}` })),
      });
      await aborted.abort();
    } finally {
      await producer.disconnect();
    }
    // One WriteTxnMarkers per transaction (one leader), one membership check per partition and
    // transaction (later batches of a verified transaction are not asked about), and the staged
    // offsets forwarded once and applied once.
    expect((await requestCount(running, 'WriteTxnMarkers')) - markersBefore).toBe(3);
    expect((await requestCount(running, 'WeirVerifyTransactionMembership')) - checksBefore).toBe(7);
    expect((await requestCount(running, 'TxnOffsetCommit')) - offsetCommitsBefore).toBe(2);
    expect((await requestCount(running, 'WeirApplyTxnOffsets')) - appliedBefore).toBe(1);

    const admin = kafka.admin();
    await admin.connect();
    try {
      // Per partition: the committed record, its marker, the aborted record, its marker; partition
      // 0 also the record of the transaction with offsets and its marker.
      const offsets = await admin.fetchTopicOffsets('spread');
      expect(offsets.map((row) => row.high)).toEqual(['6', '4', '4']);
      const [committed] = await admin.fetchOffsets({ groupId: 'spread-offsets', topics: ['spread'] });
      expect(committed!.partitions.find((row) => row.partition === 1)?.offset).toBe('7');
    } finally {
      await admin.disconnect();
    }
    const consumer = kafka.consumer({
      groupId: 'spread-reader',
      readUncommitted: false,
      maxWaitTimeInMs: 100,
    });
    const seen: string[] = [];
    await consumer.connect();
    try {
      await consumer.subscribe({ topic: 'spread', fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          seen.push(message.value!.toString());
        },
      });
      await pollUntil(() => seen.length >= 4 || undefined, 'the committed records');
    } finally {
      await consumer.disconnect();
    }
    expect(seen.sort()).toEqual(['commit-0', 'commit-1', 'commit-2', 'commit-offsets']);
  });
});

/**
 * The same path with mutual TLS between brokers: the broker dials its own internal listener over
 * TLS, presenting the listener's certificate, which the listener trusts by its principal.
 */
describe('inter-broker calls authenticated by certificate', () => {
  let files: TlsFiles;
  let running: RunningBroker;

  beforeAll(async () => {
    files = await makeTlsFiles();
    running = await startBroker(
      {
        topics: { autoCreateEnable: false },
        transactions: { stateTopicPartitions: 1 },
        cluster: { interBrokerAuthentication: 'certificate' },
        listeners: {
          internal: {
            tls: {
              certFile: files.server.cert,
              keyFile: files.server.key,
              caFile: files.ca,
              clientAuth: 'requested',
            },
            // `weir certs dev --hosts 127.0.0.1,…` names the server certificate after its first host.
            trustedCertificatePrincipals: ['User:CN=127.0.0.1'],
          },
        },
      },
      undefined,
      { routeInterBrokerCallsToSelf: true },
    );
    await running.broker.services.topics.createTopic({ name: 'mtls', partitionCount: 1, configs: {} });
  });
  afterAll(async () => {
    await running?.dispose();
    await files?.cleanup();
  });

  it('commits a kafkajs transaction with its markers sent over mutual TLS', async () => {
    const markersBefore = await requestCount(running, 'WriteTxnMarkers');
    const kafka = new Kafka({
      clientId: 'inter-broker-mtls',
      brokers: [running.bootstrap],
      logLevel: logLevel.NOTHING,
    });
    const producer = kafka.producer({ transactionalId: 'mtls-tx', idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    try {
      const transaction = await producer.transaction();
      await transaction.send({ topic: 'mtls', messages: [{ value: 'over-tls' }] });
      await transaction.commit();
    } finally {
      await producer.disconnect();
    }
    expect((await requestCount(running, 'WriteTxnMarkers')) - markersBefore).toBe(1);
    const logEnd = running.broker.partitionStats().find((stats) => stats.topic === 'mtls')?.logEndOffset;
    expect(Number(logEnd)).toBe(2);
  });
});

/**
 * A coordinator and leaders that cannot be reached: the broker routes every inter-broker call over
 * the network to itself, but its internal listener is off, so no call can be made. Producers get
 * the retriable codes and the broker keeps serving.
 */
describe('inter-broker calls that cannot be made', () => {
  let running: RunningBroker;
  let client: RawClient;
  let wire: TxnWire;

  beforeAll(async () => {
    running = await startBroker(
      {
        transactions: { stateTopicPartitions: 1 },
        cluster: { interBrokerRequestTimeoutMs: 300 },
        listeners: { internal: { enabled: false } },
      },
      undefined,
      { routeInterBrokerCallsToSelf: true },
    );
    await running.broker.services.topics.createTopic({ name: 'unreached', partitionCount: 1, configs: {} });
    client = await RawClient.connect(running.bootstrap);
    wire = new TxnWire(client);
  });
  afterAll(async () => {
    await client?.close();
    await running?.dispose();
  });

  it('answers a transactional produce NOT_ENOUGH_REPLICAS and EndTxn CONCURRENT_TRANSACTIONS, and serves on', async () => {
    const claim = await wire.claim('unreached-tx');
    expect(await wire.addPartitions(claim, 'unreached', [0])).toEqual([ErrorCode.NONE]);
    const produced = await wire.produce(claim, 'unreached', 0, ['x'], 0);
    expect(produced).toBe(ErrorCode.NOT_ENOUGH_REPLICAS);
    expect(isRetriable(produced)).toBe(true);
    // The commit is decided, but its marker cannot reach the partition's leader yet.
    const ended = await wire.end(claim, true);
    expect(ended).toBe(ErrorCode.CONCURRENT_TRANSACTIONS);
    expect(isRetriable(ended)).toBe(true);
    expect(await wire.latest('unreached', 0, false)).toBe(0);
  });
});
