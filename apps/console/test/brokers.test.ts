import { statfs } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Producer } from '@weir/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handleRestRequest } from '../src/server/api/http';
import type { BrokerConfigs, BrokerList } from '../src/server/api/schemas/brokers';
import { type GatewayFixture, rejection, startGateway } from './gateway-fixture';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

let gateway: GatewayFixture;

beforeAll(async () => {
  gateway = await startGateway();
  await gateway.clients.admin().createTopics([{ name: 'brokers-page', partitions: 4 }]);
  const producer = new Producer(gateway.clients.client(), { lingerMs: 0 });
  await producer.send({
    topic: 'brokers-page',
    messages: Array.from({ length: 40 }, (_, index) => ({ value: `record-${index}`, partition: index % 4 })),
  });
  await producer.close();
});
afterAll(async () => {
  await gateway?.dispose();
});

function rest(path: string): Promise<Response> {
  return handleRestRequest(new Request(`http://console.test/api/v1${path}`), gateway.services);
}

/**
 * The Brokers page's data from a real broker through the gateway: the client listener beside the
 * internal one, version and start, partitions led and followed with the leader skew, disk use from
 * DescribeLogDirs with the file system's free space, and the broker's non-default configs.
 */
describe('brokers service', () => {
  it('lists the broker with its client listener, version, start, partitions, skew and disk use', async () => {
    const list = await gateway.caller.brokers.list({});
    expect(list.brokers).toHaveLength(1);
    const [row] = list.brokers;
    const { broker } = gateway;
    expect(row).toMatchObject({
      state: 'live',
      isController: true,
      // The console reaches the internal listener; clients use the client one.
      host: '127.0.0.1',
      port: broker.broker.internalPort,
      clientAddress: broker.bootstrap,
      listeners: [
        { name: 'client', host: '127.0.0.1', port: broker.port },
        { name: 'internal', host: '127.0.0.1', port: broker.broker.internalPort },
      ],
      followerCount: 0,
      // One broker leads everything: exactly its even share.
      leaderSkew: { percent: 0 },
      logDirsError: null,
    });
    expect(row!.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(row!.startedAtMs).toBeGreaterThan(Date.now() - 5 * 60_000);
    expect(row!.leaderSkew.evenShare).toBe(row!.leaderCount);
    expect(row!.ledTopics.find((entry) => entry.topic === 'brokers-page')?.partitions).toEqual([0, 1, 2, 3]);

    const [dir] = row!.logDirs!;
    expect(dir!.path).toBe(resolve(join(broker.dataDir, 'logs')));
    const sizes = broker.broker.services.replicas
      .localReplicas()
      .reduce((sum, replica) => sum + replica.state.log.sizeBytes, 0);
    expect(dir!.sizeBytes).toBe(sizes);
    expect(dir!.sizeBytes).toBeGreaterThan(40 * 8);
    expect(dir!.partitionCount).toBe(broker.broker.services.replicas.localReplicas().length);
    const stats = await statfs(join(broker.dataDir, 'logs'));
    expect(dir!.totalBytes).toBe(stats.blocks * stats.bsize);
    expect(dir!.usableBytes!).toBeLessThanOrEqual(dir!.totalBytes!);
    expect(dir!.usableBytes!).toBeGreaterThan(0);
  });

  it('answers the same list over REST', async () => {
    const response = await rest('/brokers');
    expect(response.status).toBe(200);
    const list = (await response.json()) as BrokerList;
    expect(list.brokers[0]!.clientAddress).toBe(gateway.broker.bootstrap);
  });

  it("describes the broker's non-default configs, secrets as null, over tRPC and REST", async () => {
    const nodeId = gateway.broker.broker.services.cluster.localBrokerId;
    const configs = await gateway.caller.brokers.configs({ nodeId });
    const byName = new Map(configs.configs.map((entry) => [entry.name, entry]));
    // The gateway fixture sets auto-creation off and two offsets partitions; the token is set too.
    expect(byName.get('auto.create.topics.enable')).toMatchObject({
      value: 'false',
      source: 'static-broker',
    });
    expect(byName.get('weir.internal.listener.token')).toMatchObject({ value: null, isSensitive: true });
    // Defaults are left out.
    expect(byName.has('num.partitions')).toBe(false);
    expect(configs.configs.map((entry) => entry.name)).toEqual([...byName.keys()].sort());

    const response = await rest(`/brokers/${nodeId}/configs`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as BrokerConfigs).configs).toEqual(configs.configs);
  });

  it('refuses an unknown broker id with the broker message', async () => {
    const error = await rejection(gateway.caller.brokers.configs({ nodeId: 99 }));
    expect(String(error)).toMatch(/broker/);
  });
});
