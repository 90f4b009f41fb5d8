const SECRET_KEY = /password|secret|token|key$/i;

export const REDACTED = '[redacted]';

/** Whether a setting's name says it holds a secret, so its value must never be printed or logged. */
export function isSecretKey(name: string): boolean {
  return SECRET_KEY.test(name);
}

/**
 * Returns a copy of the configuration with the value of every secret-looking key masked, at any
 * depth, so `config print` and log lines can show the configuration safely.
 */
export function redactConfig<T>(config: T): T {
  return redactValue(config) as T;
}

function redactValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactValue);
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value)) {
    copy[name] = isSecretKey(name) && inner !== undefined ? REDACTED : redactValue(inner);
  }
  return copy;
}
