import { z } from 'zod';

/** One leaf setting of the configuration schema. */
export interface ConfigKey {
  path: readonly string[];
  /** The dotted form used in errors and `--set`, e.g. `listeners.client.port`. */
  dotted: string;
  /** The environment variable that sets it, e.g. `WEIR_LISTENERS__CLIENT__PORT`. */
  envVar: string;
}

export const ENV_PREFIX = 'WEIR_';

/**
 * Lists every leaf setting by walking the zod schema, so the environment mapping and the key
 * suggestions can never drift from the schema itself.
 */
export function listConfigKeys(schema: z.ZodType): ConfigKey[] {
  const keys: ConfigKey[] = [];
  const visit = (node: z.ZodType, path: string[]): void => {
    const inner = unwrap(node);
    if (inner instanceof z.ZodObject) {
      for (const [name, child] of Object.entries(inner.shape as Record<string, z.ZodType>)) {
        visit(child, [...path, name]);
      }
      return;
    }
    keys.push({ path, dotted: path.join('.'), envVar: envVarName(path) });
  };
  visit(schema, []);
  return keys;
}

/** Every dotted path that names an object of settings, e.g. `listeners` and `listeners.client`. */
export function listConfigSections(keys: readonly ConfigKey[]): string[] {
  const sections = new Set<string>();
  for (const key of keys) {
    for (let length = 1; length < key.path.length; length += 1)
      sections.add(key.path.slice(0, length).join('.'));
  }
  return [...sections];
}

/** `['log', 'flushMs']` → `WEIR_LOG__FLUSH_MS`: segments in UPPER_SNAKE joined by a double underscore. */
export function envVarName(path: readonly string[]): string {
  return ENV_PREFIX + path.map(upperSnake).join('__');
}

function upperSnake(segment: string): string {
  return segment
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toUpperCase();
}

/** Defaults and optionality wrap the schema that describes the value; the walk needs the value's. */
function unwrap(node: z.ZodType): z.ZodType {
  let current = node;
  while (
    current instanceof z.ZodDefault ||
    current instanceof z.ZodPrefault ||
    current instanceof z.ZodOptional ||
    current instanceof z.ZodNullable
  ) {
    current = current.unwrap() as z.ZodType;
  }
  return current;
}
