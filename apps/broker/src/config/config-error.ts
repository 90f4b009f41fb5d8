/** Where a configuration value came from, lowest precedence first. */
export type ConfigSource = 'default' | 'file' | 'env' | 'flag';

/** One reason the configuration is unusable; `key` is the dotted path of the setting. */
export interface ConfigError {
  key: string;
  source: ConfigSource;
  reason: string;
}

/** The one-line form printed by the CLI, e.g. `log.flushMs: expected number (from env)`. */
export function formatConfigError(error: ConfigError): string {
  return `${error.key}: ${error.reason} (from ${error.source})`;
}
