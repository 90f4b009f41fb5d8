import { statfs } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Admin, type Client, DescribeLogDirs, ErrorCode, Producer } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cluster, secureBrokerPerTest } from './acl-fixtures';
import { clientSession, type InternalSession, internalSession, weirFailure } from './internal-fixtures';

/**
 * DescribeLogDirs through the SDK's admin against a real broker: the one log directory with every
 * partition's size (as the log reports it), lag 0 for a leader, the file system's space from v4
 * (the internal listener), the topic filter, and the denial without DESCRIBE on the cluster.
 * kafkajs 2.2.4 does not implement the API.
 */
describe('DescribeLogDirs', () => {
  let running: RunningBroker;
  let data: { client: Client; admin: Admin };
  let session: InternalSession;

  beforeAll(async () => {
    running = await startBroker({ topics: { autoCreateEnable: false } });
    data = clientSession(running);
    session = internalSession(running);
    await data.admin.createTopics([
      { name: 'sizes', partitions: 2 },
      { name: 'other', partitions: 1 },
    ]);
    const producer = new Producer(data.client, { lingerMs: 0 });
    await producer.send({
      topic: 'sizes',
      messages: Array.from({ length: 30 }, (_, index) => ({
        value: `v${index}`.repeat(20),
        partition: index % 2,
      })),
    });
    await producer.send({ topic: 'other', messages: [{ value: 'x' }] });
    await producer.close();
  });

  afterAll(async () => {
    await session?.close();
    await data?.client.close();
    await running?.dispose();
  });

  const sizeOf = (topic: string, partition: number) =>
    running.broker.services.replicas.localReplica(topic, partition)!.log.sizeBytes;

  it('is served at v1 on the client listener and v4 on the internal one', async () => {
    const id = running.broker.services.cluster.localBrokerId;
    // The version each connection negotiated from the broker's ApiVersions answer: min(4, advertised).
    expect((await data.client.connectionTo(id)).versionFor(DescribeLogDirs)).toBe(1);
    expect((await session.client.connectionTo(id)).versionFor(DescribeLogDirs)).toBe(4);
  });

  it('answers the data directory with every partition, sizes as the logs have them, leaders lagging 0', async () => {
    const [directory, ...more] = await data.admin.describeLogDirs();
    expect(more).toEqual([]);
    expect(directory!.path).toBe(resolve(join(running.dataDir, 'logs')));
    expect(directory!.errorCode).toBe(ErrorCode.NONE);
    // v1 on the client listener carries no file system sizes.
    expect(directory!.totalBytes).toBeNull();
    const user = directory!.replicas.filter((replica) => !replica.topic.startsWith('__'));
    expect(user).toEqual([
      { topic: 'other', partition: 0, sizeBytes: sizeOf('other', 0), offsetLag: 0, isFuture: false },
      { topic: 'sizes', partition: 0, sizeBytes: sizeOf('sizes', 0), offsetLag: 0, isFuture: false },
      { topic: 'sizes', partition: 1, sizeBytes: sizeOf('sizes', 1), offsetLag: 0, isFuture: false },
    ]);
    expect(sizeOf('sizes', 0)).toBeGreaterThan(15 * 40);
  });

  it("reports the file system's total and usable bytes from v4 (internal listener)", async () => {
    const admin = new Admin(session.client);
    const [directory] = await admin.describeLogDirs(running.broker.services.cluster.localBrokerId);
    const stats = await statfs(join(running.dataDir, 'logs'));
    expect(directory!.totalBytes).toBe(stats.blocks * stats.bsize);
    // Free space moves with whatever else writes to the disk; within 64 MiB of a fresh reading.
    expect(Math.abs(directory!.usableBytes! - stats.bavail * stats.bsize)).toBeLessThan(64 * 1024 * 1024);
    expect(directory!.usableBytes!).toBeLessThanOrEqual(directory!.totalBytes!);
  });

  it('answers only the partitions a topic filter names, and nothing for unknown ones', async () => {
    const [filtered] = await data.admin.describeLogDirs(undefined, {
      topics: [
        { topic: 'sizes', partitions: [1, 7] },
        { topic: 'missing', partitions: [0] },
      ],
    });
    expect(filtered!.replicas).toEqual([
      { topic: 'sizes', partition: 1, sizeBytes: sizeOf('sizes', 1), offsetLag: 0, isFuture: false },
    ]);
    const [none] = await data.admin.describeLogDirs(undefined, { topics: [] });
    expect(none!.replicas).toEqual([]);
  });
});

describe('DescribeLogDirs authorization', () => {
  const secure = secureBrokerPerTest();

  it('is CLUSTER_AUTHORIZATION_FAILED without DESCRIBE on the cluster, on both listeners; allowed with it', async () => {
    const running = await secure.start();
    // v1 (client listener) answers no directory; the SDK reads that as the denial, as Kafka's does.
    const onClient = await weirFailure(new Admin(secure.clientAs('no-acl')).describeLogDirs());
    expect(onClient.code).toBe(ErrorCode.CLUSTER_AUTHORIZATION_FAILED);
    // v4 (internal listener, acting for the principal) carries the top-level error code.
    const onInternal = await weirFailure(new Admin(secure.internalClientAs('User:nobody')).describeLogDirs());
    expect(onInternal.code).toBe(ErrorCode.CLUSTER_AUTHORIZATION_FAILED);

    await running.broker.services.acls.createAcls([{ binding: cluster('DESCRIBE') }]);
    const [directory] = await new Admin(secure.clientAs('granted')).describeLogDirs();
    expect(directory!.path).toBe(resolve(join(running.dataDir, 'logs')));
  });
});
