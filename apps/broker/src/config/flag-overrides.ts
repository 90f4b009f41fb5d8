import { closestKey } from './closest-key';
import type { ConfigError } from './config-error';
import type { ConfigKey } from './config-keys';
import type { ConfigOverride } from './config-layers';
import { parseScalar } from './parse-scalar';

/** The configuration flags shared by every command that needs a configuration. */
export interface ConfigFlags {
  /** `--config <file>`: the YAML file; overrides `WEIR_CONFIG`. */
  config?: string;
  /** `--set key.path=value`, repeatable; applied after the shortcuts, so it wins over them. */
  set?: readonly string[];
  /** `--data-dir <dir>`: shortcut for `--set dataDir=<dir>`. */
  dataDir?: string;
  /** `--port <port>`: shortcut for `--set listeners.client.port=<port>`. */
  port?: string;
  /** `--host <host>`: shortcut for `--set listeners.client.host=<host>`. */
  host?: string;
}

const SHORTCUTS: readonly { flag: keyof ConfigFlags; name: string; path: readonly string[] }[] = [
  { flag: 'dataDir', name: '--data-dir', path: ['dataDir'] },
  { flag: 'host', name: '--host', path: ['listeners', 'client', 'host'] },
  { flag: 'port', name: '--port', path: ['listeners', 'client', 'port'] },
];

/** Turns the shortcuts and every `--set` into overrides, in that order. */
export function flagOverrides(
  flags: ConfigFlags,
  keys: readonly ConfigKey[],
): { overrides: ConfigOverride[]; errors: ConfigError[] } {
  const overrides: ConfigOverride[] = [];
  const errors: ConfigError[] = [];
  for (const shortcut of SHORTCUTS) {
    const text = flags[shortcut.flag];
    if (typeof text !== 'string') continue;
    overrides.push({ path: shortcut.path, value: parseScalar(text), source: 'flag', origin: shortcut.name });
  }
  const known = new Map(keys.map((key) => [key.dotted, key]));
  for (const assignment of flags.set ?? []) {
    const equals = assignment.indexOf('=');
    const dotted = (equals < 0 ? assignment : assignment.slice(0, equals)).trim();
    if (equals <= 0 || dotted === '') {
      errors.push({
        key: dotted === '' ? '(empty)' : dotted,
        source: 'flag',
        reason: `--set ${JSON.stringify(assignment)} must have the form key.path=value`,
      });
      continue;
    }
    const key = known.get(dotted);
    if (!key) {
      const suggestion = closestKey(dotted, [...known.keys()]);
      errors.push({
        key: dotted,
        source: 'flag',
        reason: `unknown key in --set ${dotted}=…${suggestion ? ` (did you mean ${suggestion}?)` : ''}`,
      });
      continue;
    }
    const value = parseScalar(assignment.slice(equals + 1));
    overrides.push({ path: key.path, value, source: 'flag', origin: `--set ${dotted}` });
  }
  return { overrides, errors };
}
