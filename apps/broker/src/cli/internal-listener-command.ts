import type { Command } from 'commander';
import type { ClientCliDeps } from './client-cli-deps';
import type { InternalSession } from './internal-session';

export const DEFAULT_INTERNAL_LISTENER = '127.0.0.1:9093';

/** Where the internal listener is and how to authenticate to it, as the flags give them. */
export interface InternalListenerFlags {
  internal: string;
  tokenFile?: string;
  token?: string;
  dataDir?: string;
  internalTlsCa?: string;
  internalTlsCert?: string;
  internalTlsKey?: string;
}

/**
 * Adds the flags of {@link InternalListenerFlags} to a command that talks to the internal listener.
 * With `optional` (what the listener adds), `--internal` has no default: the command goes through
 * the internal listener only when it is given.
 */
export function withInternalOptions(command: Command, options: { optional?: string } = {}): Command {
  const listener =
    options.optional === undefined
      ? command.option('--internal <host:port>', 'the broker’s internal listener', DEFAULT_INTERNAL_LISTENER)
      : command.option('--internal <host:port>', `the broker’s internal listener, ${options.optional}`);
  return listener
    .option(
      '--token-file <path>',
      'file holding the internal listener token (default: <data-dir>/internal-listener.token)',
    )
    .option('--token <token>', 'the internal listener token itself (visible in the process list)')
    .option('--data-dir <dir>', 'the broker’s data directory, where its generated token is', './data')
    .option('--internal-tls-ca <file>', 'CA of the internal listener’s certificate (PEM); turns TLS on')
    .option(
      '--internal-tls-cert <file>',
      'client certificate (PEM) for mutual TLS; one the broker trusts stands in for the token',
    )
    .option('--internal-tls-key <file>', 'the client certificate’s private key (PEM)');
}

/**
 * Runs an internal-listener command from its commander action, on a session opened from the
 * flags. The session module (and with it the SDK) is imported only here, when the command runs,
 * as `runClientCommand` does for the client commands.
 */
export async function runInternalCommand(
  flags: InternalListenerFlags,
  deps: ClientCliDeps,
  work: (session: InternalSession) => Promise<number | undefined>,
): Promise<number> {
  const { withInternalSession } = await import('./internal-session');
  return withInternalSession(flags, deps, work);
}
