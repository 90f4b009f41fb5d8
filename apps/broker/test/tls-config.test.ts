import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConfigError, formatConfigError } from '../src/config/config-error';
import { loadConfig } from '../src/config/load-config';
import { cleanEnv, weir } from './cli-runner';
import { makeTlsFiles, type TlsFiles } from './tls-fixtures';

let files: TlsFiles;

beforeAll(async () => {
  files = await makeTlsFiles();
});
afterAll(async () => {
  await files?.cleanup();
});

/** Loads the configuration from `WEIR_*` variables only (no file). */
async function load(env: Record<string, string>) {
  const loaded = await loadConfig({ flags: { set: [] }, env });
  return loaded;
}

function sslEnv(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    WEIR_LISTENERS__CLIENT__SECURITY_PROTOCOL: 'SSL',
    WEIR_LISTENERS__CLIENT__TLS__CERT_FILE: files.server.cert,
    WEIR_LISTENERS__CLIENT__TLS__KEY_FILE: files.server.key,
    ...overrides,
  };
}

async function errorsOf(env: Record<string, string>): Promise<ConfigError[]> {
  const loaded = await load(env);
  if (loaded.ok) throw new Error('expected configuration errors');
  return loaded.errors;
}

describe('listener TLS configuration', () => {
  it('accepts SSL with readable files and fills in the defaults', async () => {
    const loaded = await load(sslEnv());
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
    expect(loaded.config.listeners.client.tls).toEqual({
      certFile: files.server.cert,
      keyFile: files.server.key,
      clientAuth: 'none',
      principalMapping: 'dn',
      handshakeTimeoutMs: 10_000,
    });
  });

  it('names the key of a file that cannot be read', async () => {
    const missing = join(files.dir, 'nope.pem');
    const errors = await errorsOf(sslEnv({ WEIR_LISTENERS__CLIENT__TLS__CERT_FILE: missing }));
    expect(errors).toEqual([
      { key: 'listeners.client.tls.certFile', source: 'env', reason: expect.stringContaining(missing) },
    ]);
    expect(errors[0]!.reason).toContain('ENOENT');
  });

  it('names the key of a file that does not hold what it should, without showing its contents', async () => {
    const garbage = join(files.dir, 'garbage.pem');
    await writeFile(garbage, 'not a pem file at all');
    const errors = await errorsOf(
      sslEnv({
        WEIR_LISTENERS__CLIENT__TLS__KEY_FILE: files.server.cert,
        WEIR_LISTENERS__CLIENT__TLS__CA_FILE: garbage,
      }),
    );
    expect(errors.map((error) => error.key).sort()).toEqual([
      'listeners.client.tls.caFile',
      'listeners.client.tls.keyFile',
    ]);
    expect(errors.find((error) => error.key.endsWith('keyFile'))!.reason).toContain('private key');
    expect(JSON.stringify(errors)).not.toContain('not a pem file');
  });

  it('refuses a key that does not belong to the certificate, and never prints the key', async () => {
    const errors = await errorsOf(sslEnv({ WEIR_LISTENERS__CLIENT__TLS__KEY_FILE: files.alice.key }));
    expect(errors).toHaveLength(1);
    expect(errors[0]!.key).toBe('listeners.client.tls.keyFile');
    expect(errors[0]!.reason).toMatch(/is not the private key of the certificate/);
    const keyText = await readFile(files.alice.key, 'utf8');
    expect(JSON.stringify(errors)).not.toContain(keyText.split('\n')[1]);
  });

  it('requires tls for SSL and SASL_SSL', async () => {
    for (const protocol of ['SSL', 'SASL_SSL']) {
      const errors = await errorsOf({ WEIR_LISTENERS__CLIENT__SECURITY_PROTOCOL: protocol });
      expect(errors.map(formatConfigError)).toEqual([
        expect.stringMatching(/^listeners\.client\.tls: required when securityProtocol is/),
      ]);
    }
  });

  it('refuses tls on a listener that is not encrypted rather than serving cleartext', async () => {
    const errors = await errorsOf(sslEnv({ WEIR_LISTENERS__CLIENT__SECURITY_PROTOCOL: 'PLAINTEXT' }));
    expect(errors).toEqual([
      expect.objectContaining({
        key: 'listeners.client.tls',
        reason: expect.stringContaining('use SSL or remove tls'),
      }),
    ]);
  });

  it('requires a CA to check client certificates', async () => {
    const errors = await errorsOf(sslEnv({ WEIR_LISTENERS__CLIENT__TLS__CLIENT_AUTH: 'required' }));
    expect(errors.map((error) => error.key)).toEqual(['listeners.client.tls.caFile']);
  });

  it('checks the internal listener TLS files the same way', async () => {
    const errors = await errorsOf({
      WEIR_LISTENERS__INTERNAL__TLS__CERT_FILE: join(files.dir, 'missing.pem'),
      WEIR_LISTENERS__INTERNAL__TLS__KEY_FILE: files.server.key,
    });
    expect(errors.map((error) => error.key)).toEqual(['listeners.internal.tls.certFile']);
  });
});

describe('weir broker start with a bad TLS file', () => {
  it('exits 2 naming the key, before starting anything', async () => {
    const config = join(files.dir, 'broker.yaml');
    await writeFile(
      config,
      [
        `dataDir: ${join(files.dir, 'data')}`,
        'listeners:',
        '  client:',
        '    securityProtocol: SSL',
        '    tls:',
        `      certFile: ${files.server.cert}`,
        `      keyFile: ${join(files.dir, 'no-such-key.pem')}`,
      ].join('\n'),
    );
    const result = await weir(['broker', 'start', '--config', config], {
      env: cleanEnv(),
      timeoutMs: 20_000,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('listeners.client.tls.keyFile: cannot read');
    expect(result.stderr).toContain('(from file)');
  });
});
