#!/usr/bin/env node
// `npm start`: builds the console, then runs the broker (embedded data directory ./data, client
// listener 127.0.0.1:9092, internal listener 127.0.0.1:9093, health :9080, metrics :9100) and the
// console (http://127.0.0.1:3000) in the foreground. The console reaches the broker's internal
// listener with a token made fresh for this run and handed to both through their environment,
// so it is never written anywhere or printed. Both are direct children, so Ctrl-C (SIGINT) or SIGTERM reaches them as is:
// the broker finishes in-flight requests and writes its checkpoints before it exits.
// Extra arguments go to the broker: `npm start -- --set log.flushMs=5`.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const brokerArgs = process.argv.slice(2);
const internalListener = '127.0.0.1:9093';
// The prefix keeps the token from ever reading as a number, which the broker's environment parsing
// would turn it into (an all-digit hex string is possible, just unlikely).
const internalToken = `weir-${randomBytes(32).toString('hex')}`;

console.log('Building the console…');
const build = spawnSync('npm', ['run', 'build', '--workspace=@weir/console'], {
  cwd: root,
  stdio: 'inherit',
});
if (build.status !== 0) {
  console.error('The console build failed; see the output above.');
  process.exit(build.status ?? 1);
}

const children = [
  {
    name: 'broker',
    child: spawn(
      process.execPath,
      [join(root, 'apps/broker/bin/weir.js'), 'broker', 'start', ...brokerArgs],
      {
        cwd: root,
        stdio: 'inherit',
        env: { ...process.env, WEIR_LISTENERS__INTERNAL__TOKEN: internalToken },
      },
    ),
  },
  {
    name: 'console',
    child: spawn(
      process.execPath,
      [join(root, 'node_modules/next/dist/bin/next'), 'start', '--hostname', '127.0.0.1', '--port', '3000'],
      {
        cwd: join(root, 'apps/console'),
        stdio: 'inherit',
        env: {
          ...process.env,
          NEXT_TELEMETRY_DISABLED: '1',
          WEIR_CONSOLE_BROKER: internalListener,
          WEIR_CONSOLE_INTERNAL_TOKEN: internalToken,
        },
      },
    ),
  },
];
console.log(
  `Weir broker: 127.0.0.1:9092 · internal listener: ${internalListener} · console: http://127.0.0.1:3000`,
);

let stopping = false;
function stopAll(signal) {
  if (stopping) return;
  stopping = true;
  for (const { child } of children)
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
}
process.on('SIGINT', () => stopAll('SIGINT'));
process.on('SIGTERM', () => stopAll('SIGTERM'));

let running = children.length;
let failed = false;
for (const { name, child } of children) {
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`${name} exited (${signal ?? code}); stopping the rest.`);
      failed = true;
    }
    stopAll('SIGTERM');
    running -= 1;
    if (running === 0) process.exit(failed ? 1 : 0);
  });
}
