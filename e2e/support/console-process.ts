/*
 * The production console build (`next start --port 0`) as a child process of an e2e web server
 * (serve-console.ts, serve-cluster-console.ts), and how such a server stops: SIGTERM, SIGINT or the
 * console exiting stops the console by its PID, waiting until it has exited, then whatever the
 * server started for it (brokers, etcd), then the server itself.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const consoleDir = join(import.meta.dirname, '..', '..', 'apps', 'console');
const nextBin = createRequire(join(consoleDir, 'package.json')).resolve('next/dist/bin/next');

/** How long the console gets to exit after SIGTERM before it is killed. */
const CONSOLE_STOP_TIMEOUT_MS = 10_000;

export interface ConsoleProcessOptions {
  /** The internal listeners, as WEIR_CONSOLE_BROKER lists them. */
  readonly broker: string;
  readonly internalToken: string;
  readonly auth: 'none' | 'login';
  /**
   * `inherit` passes Next's banner on unchanged (the Playwright configs read the URL from it);
   * `pipe` leaves it to the caller, on `child.stdout`.
   */
  readonly stdout: 'inherit' | 'pipe';
}

export interface ConsoleProcess {
  readonly child: ChildProcess;
}

export function startConsoleProcess(options: ConsoleProcessOptions): ConsoleProcess {
  const child = spawn(process.execPath, [nextBin, 'start', '--hostname', '127.0.0.1', '--port', '0'], {
    cwd: consoleDir,
    stdio: ['ignore', options.stdout, 'inherit'],
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: '1',
      WEIR_CONSOLE_BROKER: options.broker,
      WEIR_CONSOLE_INTERNAL_TOKEN: options.internalToken,
      WEIR_CONSOLE_LOG_LEVEL: 'warn',
      WEIR_CONSOLE_AUTH: options.auth,
    },
  });
  return { child };
}

/**
 * Stops everything on SIGTERM, SIGINT or the console's exit, once: the console by its PID first,
 * then `afterConsole`, then this process (with the console's exit code when it exited on its own).
 * The brokers go only once the console is gone: its connections would otherwise hold a broker's
 * drain, and a console that ignores SIGTERM must not outlive this process.
 */
export function stopWithConsole(consoleProcess: ConsoleProcess, afterConsole: () => Promise<void>): void {
  const { child } = consoleProcess;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stopping: Promise<void> | undefined;
  const stop = (exitCode: number) => {
    stopping ??= (async () => {
      const running = child.exitCode === null && child.signalCode === null;
      if (running && child.pid !== undefined) {
        process.kill(child.pid, 'SIGTERM');
        const forceKill = setTimeout(() => child.kill('SIGKILL'), CONSOLE_STOP_TIMEOUT_MS);
        await exited;
        clearTimeout(forceKill);
      }
      await afterConsole();
      process.exit(exitCode);
    })();
    return stopping;
  };
  process.on('SIGTERM', () => void stop(0));
  process.on('SIGINT', () => void stop(0));
  child.on('exit', (code) => void stop(code ?? 1));
}
