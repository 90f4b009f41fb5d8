import { describe, expect, it } from 'vitest';
import { REDACTED, redactConfig } from './redact-config';

describe('redactConfig', () => {
  it('masks secret-looking keys at any depth and leaves the rest, without changing the input', () => {
    const config = {
      dataDir: './data',
      sasl: { password: 'p', users: [{ name: 'a', apiKey: 'k', sessionToken: 't' }] },
      tls: { privateKey: 'pem', clientSecret: 's', keyspace: 'not a secret' },
      nested: { PASSWORD_FILE: '/run/secrets/x' },
    };
    expect(redactConfig(config)).toEqual({
      dataDir: './data',
      sasl: { password: REDACTED, users: [{ name: 'a', apiKey: REDACTED, sessionToken: REDACTED }] },
      tls: { privateKey: REDACTED, clientSecret: REDACTED, keyspace: 'not a secret' },
      nested: { PASSWORD_FILE: REDACTED },
    });
    expect(config.sasl.password).toBe('p');
  });
});
