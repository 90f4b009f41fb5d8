#!/usr/bin/env node
// `npm run cluster`: a three-broker Weir cluster on this machine, in the foreground. It makes sure
// etcd is installed (Debian's etcd-server, installed with apt-get when this runs as root, or it
// says what to install), builds the console, then starts etcd (127.0.0.1:2379, peer 2380), brokers
// 1, 2 and 3 in cluster mode (client 9092/9094/9096, internal 9093/9095/9097, health
// 9081/9082/9083, metrics 9101/9102/9103) and the console (http://127.0.0.1:3000, reaching all
// three internal listeners), with all data under ./data-cluster/. Every output line is prefixed
// with the process it came from. Ctrl-C stops the console and the brokers gracefully, then etcd
// (a second Ctrl-C kills what is left); any process dying on its own stops the rest.
// Extra arguments go to every broker: `npm run cluster -- --set log.flushMs=5`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { buildConsole, CONSOLE_URL, consoleCommand, freshInternalToken, root } from './console-process.mjs';
import { ProcessSupervisor } from './process-supervisor.mjs';

const brokerArgs = process.argv.slice(2);
const dataRoot = join(root, 'data-cluster');
const etcdClientUrl = 'http://127.0.0.1:2379';
const etcdPeerUrl = 'http://127.0.0.1:2380';
const brokers = [1, 2, 3].map((nodeId) => ({
  nodeId,
  name: `broker-${nodeId}`,
  client: 9090 + 2 * nodeId,
  internal: 9091 + 2 * nodeId,
  health: 9080 + nodeId,
  metrics: 9100 + nodeId,
}));
const internalListeners = brokers.map((broker) => `127.0.0.1:${broker.internal}`).join(',');

const etcdBinary = ensureEtcd();
await ensurePortsFree([
  { port: 2379, what: 'etcd (client)' },
  { port: 2380, what: 'etcd (peer)' },
  ...brokers.flatMap((broker) => [
    { port: broker.client, what: `${broker.name} client listener` },
    { port: broker.internal, what: `${broker.name} internal listener` },
    { port: broker.health, what: `${broker.name} health` },
    { port: broker.metrics, what: `${broker.name} metrics` },
  ]),
  { port: 3000, what: 'the console' },
]);
buildConsole();

const supervisor = new ProcessSupervisor({ labelWidth: 'broker-1'.length, stopLast: ['etcd'] });
process.on('SIGINT', () => void supervisor.stop(0));
process.on('SIGTERM', () => void supervisor.stop(0));

supervisor.start('etcd', etcdBinary, [
  '--name=weir-etcd',
  `--data-dir=${join(dataRoot, 'etcd')}`,
  `--listen-client-urls=${etcdClientUrl}`,
  `--advertise-client-urls=${etcdClientUrl}`,
  `--listen-peer-urls=${etcdPeerUrl}`,
  `--initial-advertise-peer-urls=${etcdPeerUrl}`,
  `--initial-cluster=weir-etcd=${etcdPeerUrl}`,
  '--initial-cluster-state=new',
  '--logger=zap',
  '--log-level=warn',
]);
try {
  await waitUntil(() => etcdHealthy(), 30_000, 'etcd to be healthy at http://127.0.0.1:2379/health', 'etcd');
} catch (error) {
  // etcd died (the supervisor is already stopping) or never became healthy.
  if (!supervisor.stopping) console.error(`${error.message}; stopping.`);
  await supervisor.stop(1);
}
console.log('etcd is healthy at 127.0.0.1:2379.');

// One token for the three internal listeners and the console: the brokers and the console's
// gateway all present it (README, Cluster).
const internalToken = freshInternalToken();
for (const broker of brokers) {
  const settings = {
    nodeId: broker.nodeId,
    'cluster.etcdEndpoints': etcdClientUrl,
    'listeners.client.port': broker.client,
    'listeners.internal.port': broker.internal,
    'health.port': broker.health,
    'metrics.port': broker.metrics,
    ...(process.stdout.isTTY ? { 'logging.pretty': true } : {}),
  };
  const args = [
    join(root, 'apps/broker/bin/weir.js'),
    'broker',
    'start',
    '--data-dir',
    join(dataRoot, broker.name),
  ];
  for (const [key, value] of Object.entries(settings)) args.push('--set', `${key}=${value}`);
  supervisor.start(broker.name, process.execPath, [...args, ...brokerArgs], {
    cwd: root,
    env: { ...process.env, WEIR_LISTENERS__INTERNAL__TOKEN: internalToken },
  });
}
const consoleStart = consoleCommand(internalListeners, internalToken);
supervisor.start('console', consoleStart.command, consoleStart.args, consoleStart.options);

// The summary waits for the brokers to say they are ready; one that is not after a minute is
// reported with what its /ready says, and everything keeps running.
const readiness = await Promise.all(
  brokers.map((broker) =>
    waitUntil(() => brokerReady(broker), 60_000, `${broker.name} to be ready`, broker.name).then(
      () => undefined,
      async () => `${broker.name}: ${await readySummary(broker)}`,
    ),
  ),
);
if (!supervisor.stopping) {
  const notReady = readiness.filter((line) => line !== undefined);
  if (notReady.length > 0) console.error(`Not ready yet after 60 s:\n  ${notReady.join('\n  ')}`);
  console.log(
    [
      '',
      'Weir cluster (data in ./data-cluster/):',
      '  etcd      127.0.0.1:2379 (peer 2380)',
      ...brokers.map(
        (broker) =>
          `  ${broker.name}  client 127.0.0.1:${broker.client} · internal :${broker.internal} · health :${broker.health} · metrics :${broker.metrics}`,
      ),
      `  console   ${CONSOLE_URL}`,
      `  kcat -b ${brokers.map((broker) => `127.0.0.1:${broker.client}`).join(',')} -L`,
      'Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
}

/** The etcd binary to run; installs Debian's etcd-server when missing and this is root with apt-get. */
function ensureEtcd() {
  const found = ['/usr/bin/etcd', '/usr/local/bin/etcd'].find((path) => existsSync(path));
  if (found) return found;
  if (spawnSync('etcd', ['--version'], { stdio: 'ignore' }).status === 0) return 'etcd';
  const canInstall =
    process.getuid?.() === 0 && spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  if (!canInstall) {
    console.error(
      'etcd is not installed. Install etcd 3.4 or later and run this again:\n' +
        '  Debian or Ubuntu: sudo apt-get install etcd-server\n' +
        '  elsewhere: put the etcd binary of an etcd release (3.4 or later) on PATH',
    );
    process.exit(1);
  }
  console.log('etcd is not installed; installing the Debian package etcd-server…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', '--no-install-recommends', 'etcd-server'],
  ]) {
    if (spawnSync('apt-get', args, { stdio: 'inherit', env }).status !== 0) {
      console.error(`apt-get ${args.join(' ')} failed; install etcd-server yourself and run this again.`);
      process.exit(1);
    }
  }
  if (!existsSync('/usr/bin/etcd')) {
    console.error('etcd-server was installed but /usr/bin/etcd is missing; check the package.');
    process.exit(1);
  }
  return '/usr/bin/etcd';
}

/** Exits with the list of ports some other process holds (an `npm start` still running, say). */
async function ensurePortsFree(wanted) {
  const taken = [];
  for (const { port, what } of wanted) if (!(await canBind(port))) taken.push(`127.0.0.1:${port} (${what})`);
  if (taken.length === 0) return;
  console.error(
    `These ports are in use; stop what holds them (an \`npm start\` or another cluster?):\n  ${taken.join('\n  ')}`,
  );
  process.exit(1);
}

function canBind(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ host: '127.0.0.1', port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** Polls `probe` every 100 ms until it is true; rejects after `timeoutMs` or when `name` has exited. */
async function waitUntil(probe, timeoutMs, what, name) {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (supervisor.stopping || !supervisor.isRunning(name)) throw new Error(`${name} stopped before ${what}`);
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function etcdHealthy() {
  try {
    const response = await fetch(`${etcdClientUrl}/health`, { signal: AbortSignal.timeout(1000) });
    return response.ok && (await response.json()).health === 'true';
  } catch {
    return false;
  }
}

async function brokerReady(broker) {
  try {
    const response = await fetch(`http://127.0.0.1:${broker.health}/ready`, {
      signal: AbortSignal.timeout(1000),
    });
    return response.status === 200;
  } catch {
    return false;
  }
}

async function readySummary(broker) {
  try {
    const response = await fetch(`http://127.0.0.1:${broker.health}/ready`, {
      signal: AbortSignal.timeout(1000),
    });
    return (await response.json()).summary ?? `HTTP ${response.status}`;
  } catch (error) {
    return `no answer from /ready (${error.message})`;
  }
}
