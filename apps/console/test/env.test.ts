import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConsoleConfigError, parseEnv, resolveToken } from '../src/env';

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
