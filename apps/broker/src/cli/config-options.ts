import type { Command } from 'commander';
import type { ConfigFlags } from '../config/flag-overrides';

/** Adds the flags that select and override the configuration, shared by every command that loads it. */
export function addConfigOptions(command: Command): Command {
  return command
    .option('--config <file>', 'YAML configuration file (default: $WEIR_CONFIG)')
    .option(
      '--set <key=value>',
      'override one setting, e.g. --set log.flushMs=50 (repeatable)',
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option('--data-dir <dir>', 'directory for partition logs and metadata (dataDir)')
    .option('--port <port>', 'client listener port (listeners.client.port)')
    .option('--host <host>', 'client listener host (listeners.client.host)');
}

/** Picks the configuration flags out of commander's parsed options. */
export function configFlagsFrom(options: Record<string, unknown>): ConfigFlags {
  const text = (name: string): string | undefined =>
    typeof options[name] === 'string' ? (options[name] as string) : undefined;
  const set = Array.isArray(options.set) ? options.set.map(String) : [];
  return { config: text('config'), set, dataDir: text('dataDir'), port: text('port'), host: text('host') };
}
