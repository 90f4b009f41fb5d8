import { describe, expect, it } from 'vitest';
import { formatConfigError } from './config-error';
import { loadConfig } from './load-config';
import { REDACTED, redactConfig } from './redact-config';

const SECRET = 'a-secret-internal-token-for-tests';

function load(env: Record<string, string>, set: string[] = []) {
  return loadConfig({
    flags: { set },
    env,
    readFile: async () => {
      throw new Error('no configuration file in these tests');
    },
  });
}

describe('listeners.internal', () => {
  it('defaults to enabled on 127.0.0.1:9093 with no configured token', async () => {
    const loaded = await load({});
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
    expect(loaded.config.listeners.internal).toEqual({ enabled: true, host: '127.0.0.1', port: 9093 });
  });

  it('takes its token from WEIR_LISTENERS__INTERNAL__TOKEN, and port 0', async () => {
    const loaded = await load({
      WEIR_LISTENERS__INTERNAL__TOKEN: SECRET,
      WEIR_LISTENERS__INTERNAL__PORT: '0',
    });
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
    expect(loaded.config.listeners.internal.token).toBe(SECRET);
    expect(loaded.config.listeners.internal.port).toBe(0);
  });

  it('refuses a token shorter than 16 characters without repeating it', async () => {
    const loaded = await load({}, ['listeners.internal.token=short-secret']);
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    const lines = loaded.errors.map(formatConfigError);
    expect(lines).toEqual([expect.stringMatching(/^listeners\.internal\.token: .*16.*\(from flag\)$/)]);
    expect(lines.join('\n')).not.toContain('short-secret');
  });

  it('is masked when the configuration is shown', async () => {
    const loaded = await load({ WEIR_LISTENERS__INTERNAL__TOKEN: SECRET });
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
    const shown = redactConfig(loaded.config);
    expect(shown.listeners.internal.token).toBe(REDACTED);
    expect(JSON.stringify(shown)).not.toContain(SECRET);
  });
});
