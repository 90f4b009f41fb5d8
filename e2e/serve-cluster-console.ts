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
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { startBrokerCluster } from '../apps/broker/test/cluster/broker-cluster';
import { startEtcd } from '../apps/broker/test/cluster/etcd-process';
import { type ReplicationClusterInfo, replicationClusterInfoPath } from './support/replication-cluster';

const consoleDir = join(import.meta.dirname, '..', 'apps', 'console');
const nextBin = createRequire(join(consoleDir, 'package.json')).resolve('next/dist/bin/next');

/** How long the console gets to exit after SIGTERM before it is killed. */
const CONSOLE_STOP_TIMEOUT_MS = 10_000;

/** Short sessions, so a killed broker leaves the ISRs within seconds (as in the console's cluster tests). */
const FAST_SESSIONS = { cluster: { sessionTtlSeconds: 3, controllerTtlSeconds: 3 } };

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
      () =>
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ pids: pids() })),
      (error: unknown) => response.writeHead(500).end(String(error)),
    );
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  const info: ReplicationClusterInfo = {
    bootstrap: cluster.brokers.map((broker) => broker.bootstrap).join(','),
    pids: pids(),
    controlUrl: `http://127.0.0.1:${(control.address() as AddressInfo).port}`,
  };
  mkdirSync(dirname(replicationClusterInfoPath), { recursive: true });
  writeFileSync(replicationClusterInfoPath, `${JSON.stringify(info, null, 2)}\n`);

  const consoleProcess: ChildProcess = spawn(
    process.execPath,
    [nextBin, 'start', '--hostname', '127.0.0.1', '--port', '0'],
    {
      cwd: consoleDir,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: {
        ...process.env,
        NEXT_TELEMETRY_DISABLED: '1',
        WEIR_CONSOLE_BROKER: cluster.internalBootstrap,
        WEIR_CONSOLE_INTERNAL_TOKEN: cluster.internalToken,
        WEIR_CONSOLE_LOG_LEVEL: 'warn',
        WEIR_CONSOLE_AUTH: 'none',
      },
    },
  );

  const consoleExited = new Promise<void>((resolve) => consoleProcess.once('exit', () => resolve()));
  let stopping: Promise<void> | undefined;
  const stop = (exitCode: number) => {
    stopping ??= (async () => {
      const consoleRunning = consoleProcess.exitCode === null && consoleProcess.signalCode === null;
      if (consoleRunning && consoleProcess.pid !== undefined) {
        process.kill(consoleProcess.pid, 'SIGTERM');
        const forceKill = setTimeout(() => consoleProcess.kill('SIGKILL'), CONSOLE_STOP_TIMEOUT_MS);
        await consoleExited;
        clearTimeout(forceKill);
      }
      control.close();
      await cluster.stop();
      await etcd.stop();
      process.exit(exitCode);
    })();
    return stopping;
  };
  process.on('SIGTERM', () => void stop(0));
  process.on('SIGINT', () => void stop(0));
  consoleProcess.on('exit', (code) => void stop(code ?? 1));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
