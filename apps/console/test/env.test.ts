import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConsoleConfigError, parseEnv, resolveInternalTls, resolveToken } from '../src/env';

describe('console environment', () => {
  it('defaults to the loopback internal listener and reports a missing token by name on use', () => {
    const env = parseEnv({});
    expect(env.brokerBootstrap).toEqual(['127.0.0.1:9093']);
    expect(() => resolveToken(env.token)).toThrow(/WEIR_CONSOLE_INTERNAL_TOKEN/);
  });

  it('reads the token from a file, trimmed', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'weir-console-'));
    const path = join(directory, 'token');
    await writeFile(path, 'secret\n');
    expect(resolveToken(parseEnv({ WEIR_CONSOLE_INTERNAL_TOKEN_FILE: path }).token)).toBe('secret');
    expect(() =>
      resolveToken(parseEnv({ WEIR_CONSOLE_INTERNAL_TOKEN_FILE: join(directory, 'none') }).token),
    ).toThrow(/WEIR_CONSOLE_INTERNAL_TOKEN_FILE/);
  });

  it('names the variable of a malformed value', () => {
    expect(() => parseEnv({ WEIR_CONSOLE_BROKER: 'no-port' })).toThrow(ConsoleConfigError);
    expect(() => parseEnv({ WEIR_CONSOLE_BROKER: 'no-port' })).toThrow(/WEIR_CONSOLE_BROKER/);
  });

  it('runs without login unless WEIR_CONSOLE_AUTH=login, and refuses other modes', () => {
    expect(parseEnv({}).auth).toBe('none');
    expect(parseEnv({ WEIR_CONSOLE_AUTH: 'login' }).auth).toBe('login');
    expect(() => parseEnv({ WEIR_CONSOLE_AUTH: 'maybe' })).toThrow(/WEIR_CONSOLE_AUTH/);
  });
});

describe('console environment: TLS to the internal listener', () => {
  const CERT_PEM = '-----BEGIN CERTIFICATE-----\nclient\n-----END CERTIFICATE-----\n';
  const KEY_PEM = '-----BEGIN PRIVATE KEY-----\nkey\n-----END PRIVATE KEY-----\n';
  const CA_PEM = '-----BEGIN CERTIFICATE-----\nca\n-----END CERTIFICATE-----\n';

  async function pemFiles() {
    const directory = await mkdtemp(join(tmpdir(), 'weir-console-tls-'));
    const write = async (name: string, text: string) => {
      await writeFile(join(directory, name), text);
      return join(directory, name);
    };
    return {
      directory,
      WEIR_CONSOLE_INTERNAL_TLS_CA_FILE: await write('ca.pem', CA_PEM),
      WEIR_CONSOLE_INTERNAL_TLS_CERT_FILE: await write('console.pem', CERT_PEM),
      WEIR_CONSOLE_INTERNAL_TLS_KEY_FILE: await write('console-key.pem', KEY_PEM),
    };
  }

  it('is plaintext when no TLS variable is set', () => {
    expect(parseEnv({}).internalTls).toBeUndefined();
    expect(resolveInternalTls(parseEnv({}).internalTls)).toBeUndefined();
  });

  it('lets a client certificate stand in for the token (an empty one) and reads the PEM files', async () => {
    const { directory: _, ...variables } = await pemFiles();
    const env = parseEnv(variables);
    expect(env.token).toEqual({ kind: 'certificate' });
    expect(resolveToken(env.token)).toBe('');
    expect(resolveInternalTls(env.internalTls)).toEqual({ ca: CA_PEM, cert: CERT_PEM, key: KEY_PEM });
  });

  it('still sends a token that is set alongside the certificate', async () => {
    const { directory: _, ...variables } = await pemFiles();
    const env = parseEnv({ ...variables, WEIR_CONSOLE_INTERNAL_TOKEN: 'secret' });
    expect(resolveToken(env.token)).toBe('secret');
  });

  it('needs the token with only a CA (TLS without a client certificate)', async () => {
    const files = await pemFiles();
    const env = parseEnv({ WEIR_CONSOLE_INTERNAL_TLS_CA_FILE: files.WEIR_CONSOLE_INTERNAL_TLS_CA_FILE });
    expect(resolveInternalTls(env.internalTls)).toEqual({ ca: CA_PEM });
    expect(() => resolveToken(env.token)).toThrow(/WEIR_CONSOLE_INTERNAL_TLS_CERT_FILE/);
  });

  it('refuses a certificate without its key, and the reverse, naming the missing variable', async () => {
    const files = await pemFiles();
    expect(() =>
      parseEnv({ WEIR_CONSOLE_INTERNAL_TLS_CERT_FILE: files.WEIR_CONSOLE_INTERNAL_TLS_CERT_FILE }),
    ).toThrow(expect.objectContaining({ variable: 'WEIR_CONSOLE_INTERNAL_TLS_KEY_FILE' }));
    expect(() =>
      parseEnv({ WEIR_CONSOLE_INTERNAL_TLS_KEY_FILE: files.WEIR_CONSOLE_INTERNAL_TLS_KEY_FILE }),
    ).toThrow(expect.objectContaining({ variable: 'WEIR_CONSOLE_INTERNAL_TLS_CERT_FILE' }));
  });

  it('names the variable of an unreadable or non-PEM file on use, without its contents', async () => {
    const { directory, ...variables } = await pemFiles();
    const missing = parseEnv({
      ...variables,
      WEIR_CONSOLE_INTERNAL_TLS_KEY_FILE: join(directory, 'none.pem'),
    });
    expect(() => resolveInternalTls(missing.internalTls)).toThrow(
      expect.objectContaining({ variable: 'WEIR_CONSOLE_INTERNAL_TLS_KEY_FILE' }),
    );
    const garbage = join(directory, 'garbage.pem');
    await writeFile(garbage, 'a secret that is not PEM');
    const notPem = parseEnv({ ...variables, WEIR_CONSOLE_INTERNAL_TLS_KEY_FILE: garbage });
    expect(() => resolveInternalTls(notPem.internalTls)).toThrow(ConsoleConfigError);
    expect(() => resolveInternalTls(notPem.internalTls)).not.toThrow(/a secret/);
  });
});
