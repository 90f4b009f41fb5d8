import { describe, expect, it } from 'vitest';
import { brokerConfigSchema } from './broker-config';
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
    expect(loaded.config.listeners.internal).toEqual({
      enabled: true,
      host: '127.0.0.1',
      port: 9093,
      trustedCertificatePrincipals: [],
    });
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

describe('listeners.internal.trustedCertificatePrincipals', () => {
  const tls = [
    'listeners.internal.tls.certFile=/tls/server.pem',
    'listeners.internal.tls.keyFile=/tls/key.pem',
  ];

  it('refuses trusted principals on a listener without tls', async () => {
    const loaded = await load({
      WEIR_LISTENERS__INTERNAL__TRUSTED_CERTIFICATE_PRINCIPALS: 'User:weir-console',
    });
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.errors.map(formatConfigError)).toEqual([
      expect.stringMatching(
        /^listeners\.internal\.trustedCertificatePrincipals: set, but the listener has no tls; add tls with clientAuth requested or required;.*\(from env\)$/,
      ),
    ]);
  });

  it('refuses trusted principals when tls asks for no client certificate', async () => {
    const loaded = await load({}, [
      ...tls,
      'listeners.internal.tls.clientAuth=none',
      'listeners.internal.trustedCertificatePrincipals=User:weir-console',
    ]);
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.errors.map(formatConfigError)).toEqual([
      expect.stringMatching(
        /^listeners\.internal\.trustedCertificatePrincipals: set, but tls\.clientAuth is none.*use requested or required;.*\(from flag\)$/,
      ),
    ]);
  });

  it('refuses an entry that is not a User principal', async () => {
    const loaded = await load({}, [
      ...tls,
      'listeners.internal.tls.caFile=/tls/ca.pem',
      'listeners.internal.tls.clientAuth=requested',
      'listeners.internal.trustedCertificatePrincipals=weir-console',
    ]);
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.errors.map((error) => error.key)).toEqual([
      'listeners.internal.trustedCertificatePrincipals.0',
    ]);
  });

  it('splits one string at each User: principal, so DN principals keep their commas', () => {
    const config = brokerConfigSchema.parse({
      listeners: {
        internal: {
          tls: { certFile: '/s.pem', keyFile: '/k.pem', caFile: '/ca.pem', clientAuth: 'requested' },
          trustedCertificatePrincipals: 'User:CN=weir-console,O=Acme, User:weir-broker,User:CN=a\\,User:b',
        },
      },
    });
    expect(config.listeners.internal.trustedCertificatePrincipals).toEqual([
      'User:CN=weir-console,O=Acme',
      'User:weir-broker',
      'User:CN=a\\,User:b',
    ]);
  });
});
