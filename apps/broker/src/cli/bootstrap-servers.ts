import { parseBrokerAddress } from '@weir/protocol';
import type { Environment } from '../config/env-overrides';
import { BOOTSTRAP_SERVER_ENV_VAR } from '../config/other-programs-variables';
import { DEFAULT_BOOTSTRAP_SERVER } from './global-options';
import { UsageError } from './usage-error';

/**
 * The brokers to connect to: `--bootstrap-server`, else `$WEIR_BOOTSTRAP_SERVER`, else the local
 * default. Every entry is checked here so a typo fails with exit 2 naming where it came from,
 * instead of as a connection error after the client's retries.
 */
export function bootstrapServersFrom(flag: string | undefined, env: Environment): string[] {
  const fromEnv = env[BOOTSTRAP_SERVER_ENV_VAR];
  const [text, origin] =
    flag !== undefined
      ? [flag, '--bootstrap-server']
      : fromEnv !== undefined && fromEnv !== ''
        ? [fromEnv, BOOTSTRAP_SERVER_ENV_VAR]
        : [DEFAULT_BOOTSTRAP_SERVER, 'the default'];
  const servers = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (servers.length === 0) throw new UsageError(`${origin}: no host:port given`);
  for (const server of servers) {
    try {
      parseBrokerAddress(server);
    } catch {
      throw new UsageError(`${origin}: "${server}" is not host:port with a port in 1..65535`);
    }
  }
  return servers;
}
