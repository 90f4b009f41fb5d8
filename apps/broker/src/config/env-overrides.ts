import { closestKey } from './closest-key';
import type { ConfigError } from './config-error';
import { type ConfigKey, ENV_PREFIX } from './config-keys';
import type { ConfigOverride } from './config-layers';
import { isOtherProgramsVariable } from './other-programs-variables';
import { parseScalar } from './parse-scalar';

/** Names the configuration file; it is read by the loader, not a setting of its own. */
export const CONFIG_FILE_ENV_VAR = 'WEIR_CONFIG';

export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * Turns `WEIR_*` variables into overrides. A `WEIR_*` variable that names no setting is an error
 * rather than ignored, because a misspelt variable would otherwise silently leave the default;
 * the other programs' variables (the console's, the client commands') are theirs and left alone
 * (other-programs-variables.ts says why and how they are told apart).
 */
export function envOverrides(
  env: Environment,
  keys: readonly ConfigKey[],
): { overrides: ConfigOverride[]; errors: ConfigError[] } {
  const byVar = new Map(keys.map((key) => [key.envVar, key]));
  const overrides: ConfigOverride[] = [];
  const errors: ConfigError[] = [];
  for (const name of Object.keys(env).sort()) {
    const text = env[name];
    if (!name.startsWith(ENV_PREFIX) || name === CONFIG_FILE_ENV_VAR || text === undefined) continue;
    if (isOtherProgramsVariable(name)) continue;
    const key = byVar.get(name);
    if (key) {
      overrides.push({ path: key.path, value: parseScalar(text), source: 'env', origin: name });
      continue;
    }
    const guessedKey = dottedFromEnvVar(name);
    const suggestion = closestKey(name, [...byVar.keys()]);
    errors.push({
      key: guessedKey,
      source: 'env',
      reason:
        `unknown environment variable ${name}: no setting is called ${guessedKey}` +
        (suggestion ? ` (did you mean ${suggestion}?)` : ''),
    });
  }
  return { overrides, errors };
}

/** The dotted key a variable would name if it existed: `WEIR_LOG__FLUSH_MSS` → `log.flushMss`. */
function dottedFromEnvVar(name: string): string {
  return name
    .slice(ENV_PREFIX.length)
    .split('__')
    .map((segment) =>
      segment.toLowerCase().replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase()),
    )
    .join('.');
}
