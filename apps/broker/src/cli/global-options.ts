import type { Command } from 'commander';
import { BOOTSTRAP_SERVER_ENV_VAR, CLIENT_ENV_PREFIX } from '../config/other-programs-variables';

export const DEFAULT_BOOTSTRAP_SERVER = '127.0.0.1:9092';

/** Reports a command's exit status to `runCli`. */
export type ExitReporter = (exitCode: number) => void;

/**
 * Adds `-b, --bootstrap-server` to the program, where every subcommand accepts it (before or
 * after the subcommand's name). No commander default: the environment variable must be able to
 * fill in when the flag is absent, and the injected environment is read in `bootstrapServersFrom`.
 */
export function addGlobalOptions(program: Command): Command {
  return program
    .option(
      '-b, --bootstrap-server <host:port,...>',
      `brokers to connect to (default: $${BOOTSTRAP_SERVER_ENV_VAR}, else ${DEFAULT_BOOTSTRAP_SERVER})`,
    )
    .option(
      '--security-protocol <protocol>',
      `PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL (default: $${CLIENT_ENV_PREFIX}SECURITY_PROTOCOL, else PLAINTEXT)`,
    )
    .option('--sasl-mechanism <mechanism>', 'PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512 (default SCRAM-SHA-512)')
    .option(
      '--sasl-username <name>',
      `the SASL user (default: $${CLIENT_ENV_PREFIX}SASL_USERNAME); the password comes from $${CLIENT_ENV_PREFIX}SASL_PASSWORD`,
    )
    .option('--tls-ca <file>', 'PEM file of the CAs that sign the broker certificate')
    .option('--tls-cert <file>', 'PEM client certificate, for brokers that ask for one')
    .option('--tls-key <file>', 'PEM key of --tls-cert');
}

/** The connection-security flags as a command sees them. */
export interface SecurityFlags {
  readonly securityProtocol?: string;
  readonly saslMechanism?: string;
  readonly saslUsername?: string;
  readonly tlsCa?: string;
  readonly tlsCert?: string;
  readonly tlsKey?: string;
}

export function securityFlags(command: Command): SecurityFlags {
  const options = command.optsWithGlobals();
  const pick = (name: string): string | undefined =>
    typeof options[name] === 'string' ? (options[name] as string) : undefined;
  return {
    securityProtocol: pick('securityProtocol'),
    saslMechanism: pick('saslMechanism'),
    saslUsername: pick('saslUsername'),
    tlsCa: pick('tlsCa'),
    tlsCert: pick('tlsCert'),
    tlsKey: pick('tlsKey'),
  };
}

/** The global `--bootstrap-server` as a command sees it (commander keeps it on the program). */
export function bootstrapFlag(command: Command): string | undefined {
  const value = command.optsWithGlobals().bootstrapServer;
  return typeof value === 'string' ? value : undefined;
}
