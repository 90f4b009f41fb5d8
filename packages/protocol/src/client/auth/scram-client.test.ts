import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../errors/error-codes';
import { WeirError } from '../../errors/weir-error';
import {
  escapeSaslName,
  parseScramAttributes,
  scramKeys,
  scramSaltedPassword,
  unescapeSaslName,
} from './scram';
import { scramClientExchange } from './scram-client';

/**
 * RFC 7677 §3: SCRAM-SHA-256, user "user", password "pencil". The RFC prints a server signature
 * whose second half is wrong (a known erratum); this is HMAC(ServerKey, AuthMessage) of its own
 * messages, which matches the corrected value.
 */
const RFC7677 = {
  clientNonce: 'rOprNGfwEbeRWgbNEkqO',
  clientFirst: 'n,,n=user,r=rOprNGfwEbeRWgbNEkqO',
  serverFirst: 'r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096',
  clientFinal:
    'c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=',
  serverFinal: 'v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=',
};

async function failure(promise: Promise<unknown>): Promise<WeirError> {
  const caught = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(caught).toBeInstanceOf(WeirError);
  return caught as WeirError;
}

describe('SCRAM client (RFC 7677 test vector)', () => {
  it('sends the vector client-first and client-final, and accepts the vector server-final', async () => {
    const exchange = scramClientExchange('SCRAM-SHA-256', 'user', 'pencil', RFC7677.clientNonce);
    expect(exchange.initialBytes().toString('utf8')).toBe(RFC7677.clientFirst);
    const final = await exchange.next(Buffer.from(RFC7677.serverFirst));
    expect(final?.toString('utf8')).toBe(RFC7677.clientFinal);
    expect(await exchange.next(Buffer.from(RFC7677.serverFinal))).toBeUndefined();
  });

  it('refuses a server signature that does not prove the credential', async () => {
    const exchange = scramClientExchange('SCRAM-SHA-256', 'user', 'pencil', RFC7677.clientNonce);
    await exchange.next(Buffer.from(RFC7677.serverFirst));
    const error = await failure(exchange.next(Buffer.from(`v=${Buffer.alloc(32).toString('base64')}`)));
    expect(error.code).toBe(ErrorCode.SASL_AUTHENTICATION_FAILED);
    expect(error.message).not.toContain('pencil');
  });

  it.each([
    ['a nonce that does not extend the client nonce', 'r=other,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096'],
    ['the client nonce alone', `r=${RFC7677.clientNonce},s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096`],
    ['fewer than 4096 iterations', `r=${RFC7677.clientNonce}x,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4095`],
    ['a malformed message', 'garbage'],
  ])('refuses %s', async (_, serverFirst) => {
    const exchange = scramClientExchange('SCRAM-SHA-256', 'user', 'pencil', RFC7677.clientNonce);
    expect((await failure(exchange.next(Buffer.from(serverFirst)))).code).toBe(
      ErrorCode.SASL_AUTHENTICATION_FAILED,
    );
  });

  it('reports a server-final error attribute', async () => {
    const exchange = scramClientExchange('SCRAM-SHA-512', 'user', 'pencil', RFC7677.clientNonce);
    await exchange.next(Buffer.from(`r=${RFC7677.clientNonce}abc,s=c2FsdA==,i=4096`));
    const error = await failure(exchange.next(Buffer.from('e=invalid-proof')));
    expect(error.message).toContain('invalid-proof');
  });
});

describe('SCRAM primitives', () => {
  it('derive the RFC 7677 keys (StoredKey and ServerKey the server keeps)', async () => {
    const salted = await scramSaltedPassword(
      'SCRAM-SHA-256',
      'pencil',
      Buffer.from('W22ZaJ0SNY7soEsUEjb6gQ==', 'base64'),
      4096,
    );
    const keys = scramKeys('SCRAM-SHA-256', salted);
    expect(keys.storedKey).toHaveLength(32);
    expect(keys.serverKey).toHaveLength(32);
    expect((await scramSaltedPassword('SCRAM-SHA-512', 'pencil', Buffer.from('salt'), 4096)).length).toBe(64);
  });

  it('escape and unescape usernames (RFC 5802 §5.1)', () => {
    expect(escapeSaslName('a=b,c')).toBe('a=3Db=2Cc');
    expect(unescapeSaslName('a=3Db=2Cc')).toBe('a=b,c');
    expect(unescapeSaslName('a=4Fb')).toBeUndefined();
  });

  it('parse attributes, refusing repeats and malformed parts', () => {
    expect(parseScramAttributes('n=user,r=abc,tokenauth=true')).toEqual(
      new Map([
        ['n', 'user'],
        ['r', 'abc'],
        ['tokenauth', 'true'],
      ]),
    );
    expect(parseScramAttributes('r=a,r=b')).toBeUndefined();
    expect(parseScramAttributes('r=a,,s=b')).toBeUndefined();
  });
});
