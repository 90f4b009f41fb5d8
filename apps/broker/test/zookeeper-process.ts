// Debian's ZooKeeper 3.8 (package zookeeper, installed by scripts/ensure-system-deps.sh) as a child
// process of the test: one standalone server on 127.0.0.1 with a free port and a temporary data
// directory, stopped by PID. Burrow needs one for itself (burrow-process.ts); Weir does not.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { type TemporaryDirectory, temporaryDirectory } from '@weir/test-broker';
import { freePorts, isAddressInUse } from './cluster/free-ports';
import { describeExit, SupervisedProcess } from './cluster/supervised-process';
import { pollUntil } from './group-fixtures';

/** The server's jar; its manifest's Class-Path names the Debian jars it depends on. */
const ZOOKEEPER_JAR = '/usr/share/java/zookeeper.jar';
/**
 * slf4j's simple binding (libslf4j-java, a dependency of libzookeeper-java) sends the server's log
 * to stderr, so a failed start says why; without a binding slf4j drops every line.
 */
const SLF4J_SIMPLE_JAR = '/usr/share/java/slf4j-simple.jar';
const JAVA_BINARY = '/usr/bin/java';
/** The standalone server's entry point (QuorumPeerMain would also accept a quorum config). */
const SERVER_MAIN_CLASS = 'org.apache.zookeeper.server.ZooKeeperServerMain';
/** Port collisions (another process took the port between `freePorts` and the bind) retried this often. */
const START_ATTEMPTS = 5;
/** The JVM and the server start in about 1 s on this machine; a loaded one is slower. */
const READY_TIMEOUT_MS = 30_000;
/** One four-letter-word exchange; a server that is up answers at once. */
const PROBE_TIMEOUT_MS = 1_000;

/**
 * Why the ZooKeeper tests cannot run here, or undefined when they can: only a missing Java or
 * ZooKeeper installation skips them; anything else that goes wrong is a failure.
 */
export const ZOOKEEPER_MISSING_REASON: string | undefined = (() => {
  const missing = [JAVA_BINARY, ZOOKEEPER_JAR, SLF4J_SIMPLE_JAR].filter((path) => !existsSync(path));
  return missing.length === 0
    ? undefined
    : `skipped: ${missing.join(', ')} not installed; scripts/ensure-system-deps.sh installs zookeeper`;
})();

/** A standalone ZooKeeper the test started; `stop()` ends it and removes its directory. */
export interface RunningZooKeeper {
  /** `127.0.0.1:<port>`, for a client's server list. */
  readonly address: string;
  readonly process: SupervisedProcess;
  stop(): Promise<void>;
}

/**
 * Starts ZooKeeper on a free port of 127.0.0.1 with a fresh data directory and resolves once it
 * answers `srvr` as a standalone server. The admin server (an HTTP server on port 8080) is off, and
 * only the `srvr` and `ruok` four-letter words are allowed.
 */
export async function startZooKeeper(): Promise<RunningZooKeeper> {
  const directory = await temporaryDirectory('weir-zookeeper-');
  try {
    for (let attempt = 1; ; attempt++) {
      const [port] = await freePorts('127.0.0.1', 1);
      const server = await spawnServer(directory, port!);
      try {
        await waitReady(server, port!);
        return {
          address: `127.0.0.1:${port}`,
          process: server,
          async stop() {
            await server.stop();
            await directory.cleanup();
          },
        };
      } catch (error) {
        await server.kill9();
        if (!isAddressInUse(server.output()) || attempt === START_ATTEMPTS) throw error;
      }
    }
  } catch (error) {
    await directory.cleanup();
    throw error;
  }
}

async function spawnServer(directory: TemporaryDirectory, port: number): Promise<SupervisedProcess> {
  const configFile = join(directory.path, 'zoo.cfg');
  await writeFile(
    configFile,
    [
      'tickTime=2000',
      `dataDir=${join(directory.path, 'data')}`,
      `clientPort=${port}`,
      'clientPortAddress=127.0.0.1',
      'admin.enableServer=false',
      '4lw.commands.whitelist=srvr,ruok',
      '',
    ].join('\n'),
  );
  const child = spawn(
    JAVA_BINARY,
    [
      // A small heap and the serial collector: the machine's two cores are shared.
      '-Xmx128m',
      '-XX:+UseSerialGC',
      '-cp',
      `${ZOOKEEPER_JAR}:${SLF4J_SIMPLE_JAR}`,
      SERVER_MAIN_CLASS,
      configFile,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new SupervisedProcess('zookeeper', child);
}

async function waitReady(server: SupervisedProcess, port: number): Promise<void> {
  await pollUntil(
    async () => {
      if (server.hasExited) {
        const exit = await server.exited;
        throw new Error(`zookeeper exited (${describeExit(exit)}) before it answered:\n${server.output()}`);
      }
      return (await fourLetterWord(port, 'srvr')).includes('Mode: standalone');
    },
    `zookeeper to answer srvr on 127.0.0.1:${port}`,
    { timeoutMs: READY_TIMEOUT_MS, intervalMs: 100 },
  );
}

/** Sends a four-letter word and resolves with the answer ("" when the server is not listening yet). */
function fourLetterWord(port: number, word: string): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: '127.0.0.1', port }, () => socket.end(word));
    socket.setTimeout(PROBE_TIMEOUT_MS, () => socket.destroy());
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}
