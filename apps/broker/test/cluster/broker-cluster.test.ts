import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { Kafka, logLevel } from 'kafkajs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { type BrokerCluster, startBrokerCluster } from './broker-cluster';
import { startEtcd } from './etcd-process';
import { portsCollidingOnce } from './free-ports';

const run = promisify(execFile);

/** Every record of `topic` read from the beginning by kcat through `bootstrap`, as `offset value` lines. */
async function kcatRead(bootstrap: string, topic: string): Promise<string[]> {
  const args = [
    '-b',
    bootstrap,
    '-X',
    'broker.address.family=v4',
    '-C',
    '-t',
    topic,
    '-o',
    'beginning',
    '-e',
    '-q',
  ];
  const { stdout } = await run('kcat', [...args, '-f', '%p %o %s\\n'], { timeout: 30_000 });
  return stdout.split('\n').filter((line) => line.length > 0);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A cluster of three on a fresh etcd, stopped (brokers, then etcd) when the test ends however it ends. */
async function threeBrokers(hosts?: 'per-broker'): Promise<BrokerCluster> {
  const etcd = await startEtcd();
  onTestFinished(() => etcd.stop());
  const cluster = await startBrokerCluster({ etcd, brokers: 3, hosts });
  onTestFinished(() => cluster.stop());
  return cluster;
}

/** Three child brokers loading the broker's sources at once take 10 s and more on the shared machine. */
const CLUSTER_TEST_TIMEOUT_MS = 120_000;

describe('broker cluster fixture', { timeout: CLUSTER_TEST_TIMEOUT_MS }, () => {
  it('starts three brokers in cluster mode on distinct ports; kill -9 and a restart keep ports, node id and data', async () => {
    const cluster = await threeBrokers();
    const ports = cluster.brokers.flatMap((broker) => Object.values(broker.ports));
    expect(new Set(ports).size).toBe(12);
    for (const broker of cluster.brokers) {
      expect(broker.config).toMatchObject({
        nodeId: broker.nodeId,
        cluster: { etcdEndpoints: cluster.etcd.endpoints, name: cluster.name },
      });
      expect((await broker.readiness())?.status).toBe(200);
    }
    expect(cluster.bootstrap).toBe(
      cluster.brokers.map((broker) => `127.0.0.1:${broker.ports.client}`).join(','),
    );

    const second = cluster.broker(2);
    const kafka = new Kafka({
      clientId: 'cluster-fixture',
      brokers: [second.bootstrap],
      logLevel: logLevel.NOTHING,
    });
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic: 'lifecycle', acks: -1, messages: [{ value: 'before the crash' }] });
    await producer.disconnect();

    const { pid } = second.process;
    const { ports: portsBefore } = second;
    await second.kill9();
    expect(isAlive(pid)).toBe(false);
    expect(await second.readiness()).toBeUndefined();

    const readiness = await second.restart();
    expect(readiness.status).toBe(200);
    expect(second.process.pid).not.toBe(pid);
    expect(second.ports).toEqual(portsBefore);
    expect(await kcatRead(second.bootstrap, 'lifecycle')).toEqual(['0 0 before the crash']);
  });

  it('a paused broker answers nothing until resumed; stop ends every broker by PID and removes the data', async () => {
    const cluster = await threeBrokers();
    const third = cluster.broker(3);
    third.pause();
    expect(await third.readiness()).toBeUndefined();
    third.resume();
    expect((await cluster.waitReady(third)).status).toBe(200);

    const pids = cluster.brokers.map((broker) => broker.process.pid);
    cluster.broker(1).pause();
    await cluster.stop();
    expect(pids.filter(isAlive)).toEqual([]);
    expect(cluster.brokers.filter((broker) => existsSync(broker.dataDir))).toEqual([]);
  });

  it('starts a broker on other ports when its client port was taken before it could bind it', async () => {
    // Connections to the held port are dropped at once, so closing it never waits for them.
    const holder = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => holder.close(() => resolve())));
    const takenPort = (holder.address() as { port: number }).port;
    const ports = portsCollidingOnce(takenPort);
    const etcd = await startEtcd();
    onTestFinished(() => etcd.stop());

    const cluster = await startBrokerCluster({ etcd, brokers: 1, ports });
    onTestFinished(() => cluster.stop());
    expect(ports.calls).toBe(2);
    expect(cluster.broker(1).ports.client).not.toBe(takenPort);
    expect((await cluster.broker(1).readiness())?.status).toBe(200);
  });

  it('puts broker i on 127.0.0.(10+i) when asked, every listener and probe included', async () => {
    const cluster = await threeBrokers('per-broker');
    expect(cluster.brokers.map((broker) => broker.host)).toEqual(['127.0.0.11', '127.0.0.12', '127.0.0.13']);
    const listing = await run('kcat', ['-b', cluster.broker(1).bootstrap, '-L'], { timeout: 30_000 });
    expect(listing.stdout).toContain(`at 127.0.0.11:${cluster.broker(1).ports.client}`);
    expect((await cluster.broker(3).readiness())?.status).toBe(200);
  });
});
