// The parts `npm start` (start.mjs) and `npm run cluster` (cluster.mjs) share: building the
// console, a fresh internal-listener token for one run, and how the console and `npm start`'s
// broker are started (apps/broker/test/readme-login-start.test.ts runs that broker command).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

export const root = new URL('..', import.meta.url).pathname;

/** Where the console listens in both commands. */
export const CONSOLE_URL = 'http://127.0.0.1:3000';

/**
 * A token made fresh for this run, handed to the brokers and the console through their
 * environment, so it is never written anywhere or printed. The prefix keeps it from ever reading as
 * a number, which the broker's environment parsing would turn it into (an all-digit hex string is
 * possible, just unlikely).
 */
export function freshInternalToken() {
  return `weir-${randomBytes(32).toString('hex')}`;
}

/** Builds the console for production (`next build`); exits this process if the build fails. */
export function buildConsole() {
  console.log('Building the console…');
  const build = spawnSync('npm', ['run', 'build', '--workspace=@weir/console'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) {
    console.error('The console build failed; see the output above.');
    process.exit(build.status ?? 1);
  }
}

/**
 * The command, arguments and options that start `npm start`'s broker: `weir broker start` with
 * `brokerArgs` (what follows `--`), from the repository root, with `env` (this process's, by
 * default) and the run's internal-listener token. The whole environment goes on as it is, the
 * console's variables included (`WEIR_CONSOLE_AUTH=login npm start -- --config secure.yaml`, README):
 * the broker leaves the console's and the client commands' variables alone.
 */
export function brokerCommand(brokerArgs, internalToken, env = process.env, spawnOptions = {}) {
  return {
    command: process.execPath,
    args: [join(root, 'apps/broker/bin/weir.js'), 'broker', 'start', ...brokerArgs],
    options: {
      ...spawnOptions,
      cwd: root,
      env: { ...env, WEIR_LISTENERS__INTERNAL__TOKEN: internalToken },
    },
  };
}

/**
 * The command, arguments and options that start the built console on 127.0.0.1:3000 against the
 * internal listeners in `brokerBootstrap` (`host:port`, comma-separated), authenticated by `token`.
 */
export function consoleCommand(brokerBootstrap, token, spawnOptions = {}) {
  return {
    command: process.execPath,
    args: [
      join(root, 'node_modules/next/dist/bin/next'),
      'start',
      '--hostname',
      '127.0.0.1',
      '--port',
      '3000',
    ],
    options: {
      ...spawnOptions,
      cwd: join(root, 'apps/console'),
      env: {
        ...process.env,
        NEXT_TELEMETRY_DISABLED: '1',
        WEIR_CONSOLE_BROKER: brokerBootstrap,
        WEIR_CONSOLE_INTERNAL_TOKEN: token,
      },
    },
  };
}
