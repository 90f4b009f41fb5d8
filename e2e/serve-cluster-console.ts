/*
 * The cluster browser tests' web server: etcd and three brokers as child processes (the broker's
 * own cluster fixtures, apps/broker/test/cluster/), on ephemeral ports with temporary data
 * directories, and the production console build (`next start --port 0`) pointed at the three
 * internal listeners. Next's banner goes to stdout, so playwright.cluster.config.ts reads the
 * console URL from it. Specs get each broker's PID (to kill it) and a control endpoint on
 * 127.0.0.1 that restarts a broker (only this process can spawn it with its ports and data
 * directory again) through .test-results/e2e-replication-cluster.json. SIGTERM, SIGINT or the
 * console exiting stops the console by its PID, then the brokers and etcd, removing their data.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { startBrokerCluster } from '../apps/broker/test/cluster/broker-cluster';
import { startEtcd } from '../apps/broker/test/cluster/etcd-process';
import { startConsoleProcess, stopWithConsole } from './support/console-process';
import { type ReplicationClusterInfo, replicationClusterInfoPath } from './support/replication-cluster';

/**
 * Short sessions, so a killed broker leaves the ISRs within seconds (as in the console's cluster
 * tests). The auto leader rebalance is off, so leadership that moved away from a restarted broker
 * stays away until the election spec elects it back, however long the specs before it took.
 */
const FAST_SESSIONS = {
  cluster: { sessionTtlSeconds: 3, controllerTtlSeconds: 3, autoLeaderRebalanceEnable: false },
};

async function main(): Promise<void> {
  const etcd = await startEtcd();
  const cluster = await startBrokerCluster({ etcd, brokers: 3, config: FAST_SESSIONS });

  const pids = () =>
    Object.fromEntries(
      cluster.brokers.map((broker) => [broker.nodeId, broker.isRunning ? broker.process.pid : null]),
    );
  // POST /brokers/<id>/restart starts a broker again and answers once it is ready.
  const control = createServer((request, response) => {
    const match = /^\/brokers\/(\d+)\/restart$/.exec(request.url ?? '');
    const broker =
      match === null ? undefined : cluster.brokers.find((candidate) => candidate.nodeId === Number(match[1]));
    if (request.method !== 'POST' || broker === undefined) {
      response.writeHead(404).end();
      return;
    }
    broker.restart().then(
      () => {
        // The restarted broker has a new PID: later specs read it from the file to kill it again.
        writeInfo();
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ pids: pids() }));
      },
      (error: unknown) => response.writeHead(500).end(String(error)),
    );
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  const controlUrl = `http://127.0.0.1:${(control.address() as AddressInfo).port}`;
  function writeInfo(): void {
    const info: ReplicationClusterInfo = {
      bootstrap: cluster.brokers.map((broker) => broker.bootstrap).join(','),
      pids: pids(),
      controlUrl,
    };
    mkdirSync(dirname(replicationClusterInfoPath), { recursive: true });
    writeFileSync(replicationClusterInfoPath, `${JSON.stringify(info, null, 2)}\n`);
  }
  writeInfo();

  const consoleProcess = startConsoleProcess({
    broker: cluster.internalBootstrap,
    internalToken: cluster.internalToken,
    auth: 'none',
    stdout: 'inherit',
  });
  stopWithConsole(consoleProcess, async () => {
    control.close();
    await cluster.stop();
    await etcd.stop();
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
