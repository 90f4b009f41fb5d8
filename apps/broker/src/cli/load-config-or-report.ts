import type { BrokerConfig } from '../config/broker-config';
import { formatConfigError } from '../config/config-error';
import type { ConfigFlags } from '../config/flag-overrides';
import { loadConfig } from '../config/load-config';
import type { CliDeps } from './cli-deps';

/** The exit status for an unusable configuration, distinct from a runtime failure (1). */
export const EXIT_BAD_CONFIG = 2;

/** Loads the configuration, or prints every problem to stderr (one per line) and returns undefined. */
export async function loadConfigOrReport(
  flags: ConfigFlags,
  deps: Pick<CliDeps, 'env' | 'stderr'>,
): Promise<BrokerConfig | undefined> {
  const result = await loadConfig({ flags, env: deps.env });
  if (result.ok) return result.config;
  for (const error of result.errors) deps.stderr.write(`${formatConfigError(error)}\n`);
  return undefined;
}
