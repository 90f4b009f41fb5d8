#!/usr/bin/env node
// `npm start`: builds the console, then runs the broker (embedded data directory ./data, client
// listener 127.0.0.1:9092, internal listener 127.0.0.1:9093, health :9080, metrics :9100) and the
// console (http://127.0.0.1:3000) in the foreground. The console reaches the broker's internal
// listener with a token made fresh for this run and handed to both through their environment,
// so it is never written anywhere or printed. Both are direct children, so Ctrl-C (SIGINT) or SIGTERM reaches them as is:
// the broker finishes in-flight requests and writes its checkpoints before it exits.
// Extra arguments go to the broker: `npm start -- --set log.flushMs=5`.
// `npm run cluster` (cluster.mjs) is the three-broker counterpart.
import { spawn } from 'node:child_process';
import {
  brokerCommand,
  buildConsole,
  CONSOLE_URL,
  consoleCommand,
  freshInternalToken,
} from './console-process.mjs';

const brokerArgs = process.argv.slice(2);
const internalListener = '127.0.0.1:9093';
const internalToken = freshInternalToken();

buildConsole();

const consoleStart = consoleCommand(internalListener, internalToken, { stdio: 'inherit' });
const brokerStart = brokerCommand(brokerArgs, internalToken, process.env, { stdio: 'inherit' });
const children = [
  { name: 'broker', child: spawn(brokerStart.command, brokerStart.args, brokerStart.options) },
  { name: 'console', child: spawn(consoleStart.command, consoleStart.args, consoleStart.options) },
];
console.log(`Weir broker: 127.0.0.1:9092 · internal listener: ${internalListener} · console: ${CONSOLE_URL}`);

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
