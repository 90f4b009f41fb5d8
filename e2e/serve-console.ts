/*
 * The browser tests' web server: a real broker on ephemeral ports with a temporary data directory,
 * and the production console build (`next start --port 0`) pointed at its internal listener.
 * Next's banner goes to stdout unchanged, so playwright.config.ts reads the console URL from it;
 * the broker's addresses go to a JSON file for specs. SIGTERM, SIGINT or the console exiting
 * stops both: the console by its PID, then the broker, whose data directory is removed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { startBroker } from '../apps/broker/test/broker-harness';
import { type ClusterInfo, clusterInfoPath } from './support/e2e-cluster';

const consoleDir = join(import.meta.dirname, '..', 'apps', 'console');
const nextBin = createRequire(join(consoleDir, 'package.json')).resolve('next/dist/bin/next');

async function main(): Promise<void> {
  const running = await startBroker();
  const info: ClusterInfo = { bootstrap: running.bootstrap, internalBootstrap: running.internalBootstrap };
  mkdirSync(dirname(clusterInfoPath), { recursive: true });
  writeFileSync(clusterInfoPath, `${JSON.stringify(info, null, 2)}\n`);

  const consoleProcess: ChildProcess = spawn(
    process.execPath,
    [nextBin, 'start', '--hostname', '127.0.0.1', '--port', '0'],
    {
      cwd: consoleDir,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: {
        ...process.env,
        NEXT_TELEMETRY_DISABLED: '1',
        WEIR_CONSOLE_BROKER: running.internalBootstrap,
        WEIR_CONSOLE_INTERNAL_TOKEN: running.internalToken,
        WEIR_CONSOLE_LOG_LEVEL: 'warn',
      },
    },
  );

  let stopping: Promise<void> | undefined;
  const stop = (exitCode: number) => {
    stopping ??= (async () => {
      if (consoleProcess.exitCode === null && consoleProcess.pid !== undefined) {
        process.kill(consoleProcess.pid, 'SIGTERM');
      }
      await running.dispose();
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
