import { readFileSync } from 'node:fs';
import type { SaslOptions, TlsOptions } from '@weir/protocol';
import type { Environment } from '../config/env-overrides';
import { CLIENT_ENV_PREFIX } from '../config/other-programs-variables';
import type { SecurityFlags } from './global-options';
import { UsageError } from './usage-error';

const PROTOCOLS = ['PLAINTEXT', 'SSL', 'SASL_PLAINTEXT', 'SASL_SSL'] as const;
const MECHANISMS = ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'] as const;

/** How a client command secures its connections: the SDK's `sasl` and `tls` options. */
export interface ClientSecurity {
  readonly sasl?: SaslOptions;
  readonly tls?: TlsOptions;
}

/**
 * The client commands' connection security from flags and `WEIR_CLIENT_*` variables. The SASL
 * password is read only from `WEIR_CLIENT_SASL_PASSWORD`: a flag would show it in the process list
 * and the shell history. Every problem is a usage error naming the flag or variable.
 */
export function clientSecurityFrom(
  flags: SecurityFlags,
  env: Environment,
  readFile: (path: string) => Buffer = readFileSync,
): ClientSecurity {
  const protocol = (
    flags.securityProtocol ??
    env[`${CLIENT_ENV_PREFIX}SECURITY_PROTOCOL`] ??
    'PLAINTEXT'
  ).toUpperCase();
  if (!(PROTOCOLS as readonly string[]).includes(protocol))
    throw new UsageError(`--security-protocol: "${protocol}" is not one of ${PROTOCOLS.join(', ')}`);
  const usesTls = protocol === 'SSL' || protocol === 'SASL_SSL';
  const usesSasl = protocol === 'SASL_PLAINTEXT' || protocol === 'SASL_SSL';
  if (!usesTls && (flags.tlsCa ?? flags.tlsCert ?? flags.tlsKey) !== undefined)
    throw new UsageError(`--tls-*: the security protocol ${protocol} does not use TLS`);
  if ((flags.tlsCert === undefined) !== (flags.tlsKey === undefined))
    throw new UsageError('--tls-cert and --tls-key go together');
  const file = (flag: string, path: string | undefined): Buffer | undefined => {
    if (path === undefined) return undefined;
    try {
      return readFile(path);
    } catch (error) {
      throw new UsageError(
        `${flag}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
  };
  const tls: TlsOptions | undefined = usesTls
    ? {
        ...(flags.tlsCa === undefined ? {} : { ca: file('--tls-ca', flags.tlsCa) }),
        ...(flags.tlsCert === undefined
          ? {}
          : { cert: file('--tls-cert', flags.tlsCert), key: file('--tls-key', flags.tlsKey) }),
      }
    : undefined;
  if (!usesSasl) return tls === undefined ? {} : { tls };
  const mechanism = (
    flags.saslMechanism ??
    env[`${CLIENT_ENV_PREFIX}SASL_MECHANISM`] ??
    'SCRAM-SHA-512'
  ).toUpperCase();
  if (!(MECHANISMS as readonly string[]).includes(mechanism))
    throw new UsageError(`--sasl-mechanism: "${mechanism}" is not one of ${MECHANISMS.join(', ')}`);
  const username = flags.saslUsername ?? env[`${CLIENT_ENV_PREFIX}SASL_USERNAME`];
  if (username === undefined || username === '')
    throw new UsageError(`--sasl-username (or $${CLIENT_ENV_PREFIX}SASL_USERNAME) is needed for ${protocol}`);
  const password = env[`${CLIENT_ENV_PREFIX}SASL_PASSWORD`];
  if (password === undefined || password === '')
    throw new UsageError(`$${CLIENT_ENV_PREFIX}SASL_PASSWORD is needed for ${protocol}`);
  const sasl = { mechanism: mechanism as (typeof MECHANISMS)[number], username, password } as SaslOptions;
  return tls === undefined ? { sasl } : { sasl, tls };
}
