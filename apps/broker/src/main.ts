import type { Writable } from 'node:stream';
import type { BrokerFactory } from './cli/broker-factory';
import { runCli } from './cli/run-cli';

/**
 * The `weir` entry point: the only place that touches the real process (argv, environment,
 * signals, exit). Everything it calls takes these as parameters.
 */

// The broker is loaded only by `broker start`, so `config print` works without loading it.
const createBroker: BrokerFactory = async (config, deps) => {
  const { Broker } = await import('./broker');
  return new Broker(config, deps);
};

/**
 * Resolves on the first SIGTERM or SIGINT and then removes both handlers, so a second signal
 * (a second Ctrl-C) gets Node's default behaviour and ends the process at once.
 */
function shutdownSignal(): Promise<string> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals): void => {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      resolve(signal);
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
}

/** Waits until everything written so far has been handed to the OS, so exiting loses nothing. */
function flushed(stream: Writable): Promise<void> {
  return new Promise((resolve) => stream.write('', () => resolve()));
}

const exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  createBroker,
  shutdownSignal,
});
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
// Exiting explicitly: after a stop (or a stop that hit its bound) leftover handles must not keep
// the process alive.
process.exit(exitCode);
