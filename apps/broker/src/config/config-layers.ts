import type { ConfigSource } from './config-error';

/** One value set by one layer (file, environment or flags), remembered with where it came from. */
export interface ConfigOverride {
  path: readonly string[];
  value: unknown;
  source: ConfigSource;
  /** What the user would look for: `weir.yaml line 4`, `WEIR_DATA_DIR`, `--set log.flushMs=5`. */
  origin: string;
}

export interface MergedConfigInput {
  /** The raw input handed to the schema, before defaults. */
  input: Record<string, unknown>;
  /** The override that supplied each dotted path, so a validation error can name its source. */
  provenance: Map<string, ConfigOverride>;
}

/** Applies overrides in order, so a later one (a higher-precedence layer) replaces an earlier one. */
export function mergeOverrides(overrides: readonly ConfigOverride[]): MergedConfigInput {
  const input: Record<string, unknown> = {};
  const provenance = new Map<string, ConfigOverride>();
  for (const override of overrides) {
    setIn(input, override.path, override.value);
    const dotted = override.path.join('.');
    // A value set at a path replaces whatever an earlier layer set beneath it.
    for (const key of provenance.keys()) if (key.startsWith(`${dotted}.`)) provenance.delete(key);
    provenance.set(dotted, override);
  }
  return { input, provenance };
}

/** Finds the override behind a dotted path: the path itself, else the nearest enclosing one. */
export function findOverride(
  provenance: ReadonlyMap<string, ConfigOverride>,
  dotted: string,
): ConfigOverride | undefined {
  let key = dotted;
  for (;;) {
    const found = provenance.get(key);
    if (found) return found;
    const dot = key.lastIndexOf('.');
    if (dot < 0) return undefined;
    key = key.slice(0, dot);
  }
}

/** Reads the raw value at a path, or undefined where the path does not exist. */
export function getIn(root: unknown, path: readonly (string | number)[]): unknown {
  let current = root;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = Object.hasOwn(current, segment)
      ? (current as Record<string | number, unknown>)[segment]
      : undefined;
  }
  return current;
}

function setIn(root: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let current = root;
  for (const [index, segment] of path.entries()) {
    if (index === path.length - 1) {
      defineOwn(current, segment, value);
      return;
    }
    const next = Object.hasOwn(current, segment) ? current[segment] : undefined;
    if (next !== null && typeof next === 'object' && !Array.isArray(next)) {
      current = next as Record<string, unknown>;
    } else {
      const created: Record<string, unknown> = {};
      defineOwn(current, segment, created);
      current = created;
    }
  }
}

/**
 * Defines an own property even for names like `__proto__`, which a plain assignment would turn
 * into a prototype change; the schema then rejects the name as an unknown key.
 */
function defineOwn(target: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}
