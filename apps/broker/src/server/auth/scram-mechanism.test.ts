import { randomBytes } from 'node:crypto';
import { ErrorCode, saslClientExchange, scramSaltedPassword } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import type { ScramCredentialRecord, UserRecord } from '../../metadata/metadata-store';
import { credentialForSaltedPassword } from '../../security/users/scram-credential';
import { UserStore } from '../../security/users/user-store';
import { saslAuthenticator } from './listener-authenticator';
import { plainMechanism } from './plain-mechanism';
import type { SaslConnectionAuth } from './sasl-connection-auth';
import { scramMechanism } from './scram-mechanism';

const VECTOR_SALT = Buffer.from('W22ZaJ0SNY7soEsUEjb6gQ==', 'base64');
const SERVER_NONCE = '%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0';

/** A user store over an in-memory list of users. */
function usersOf(records: UserRecord[]): UserStore {
  return new UserStore(
    {
      listUsers: () => records,
      getUser: (name) => records.find((user) => user.name === name),
      putUserCredential: async () => {},
      deleteUser: async () => {},
    },
    randomBytes,
  );
}

async function credential(
  mechanism: 'SCRAM-SHA-256' | 'SCRAM-SHA-512',
  password: string,
  salt = VECTOR_SALT,
  iterations = 4096,
): Promise<ScramCredentialRecord> {
  const salted = await scramSaltedPassword(mechanism, password, salt, iterations);
  return credentialForSaltedPassword(mechanism, salt, salted, iterations);
}

describe('SCRAM-SHA-256 on the broker (RFC 7677 test vector)', () => {
  it('answers the vector client messages with the vector server messages', async () => {
    const users = usersOf([
      { name: 'user', credentials: { 'SCRAM-SHA-256': await credential('SCRAM-SHA-256', 'pencil') } },
    ]);
    const exchange = scramMechanism('SCRAM-SHA-256', users, () => SERVER_NONCE).start();
    const first = await exchange.step(Buffer.from('n,,n=user,r=rOprNGfwEbeRWgbNEkqO'));
    expect(first).toEqual({
      kind: 'challenge',
      challenge: Buffer.from(
        'r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096',
      ),
    });
    const final = await exchange.step(
      Buffer.from(
        'c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=',
      ),
    );
    expect(final).toEqual({
      kind: 'authenticated',
      principal: 'User:user',
      finalBytes: Buffer.from('v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4='),
    });
  });

  it('refuses a wrong proof, a changed nonce and a foreign channel binding', async () => {
    const users = usersOf([
      { name: 'user', credentials: { 'SCRAM-SHA-256': await credential('SCRAM-SHA-256', 'pencil') } },
    ]);
    const nonce = 'rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0';
    for (const clientFinal of [
      `c=biws,r=${nonce},p=${Buffer.alloc(32).toString('base64')}`,
      `c=biws,r=x${nonce.slice(1)},p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=`,
      `c=eSws,r=${nonce},p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=`,
      'garbage',
    ]) {
      const exchange = scramMechanism('SCRAM-SHA-256', users, () => SERVER_NONCE).start();
      await exchange.step(Buffer.from('n,,n=user,r=rOprNGfwEbeRWgbNEkqO'));
      const result = await exchange.step(Buffer.from(clientFinal));
      expect(result.kind, clientFinal).toBe('rejected');
    }
  });

  it('refuses channel binding, a mandatory extension and another authorization id up front', async () => {
    const users = usersOf([]);
    for (const clientFirst of [
      'p=tls-unique,,n=user,r=abc',
      'n,,m=ext,n=user,r=abc',
      'n,a=admin,n=user,r=abc',
      'n,,r=abc',
    ]) {
      const result = await scramMechanism('SCRAM-SHA-256', users, () => 'srv')
        .start()
        .step(Buffer.from(clientFirst));
      expect(result.kind, clientFirst).toBe('rejected');
    }
  });

  it('walks an unknown user through both rounds with a stable decoy salt, then refuses', async () => {
    const users = usersOf([]);
    const serverFirst = async () => {
      const exchange = scramMechanism('SCRAM-SHA-256', users, () => 'srv').start();
      const first = await exchange.step(Buffer.from('n,,n=ghost,r=abc'));
      expect(first.kind).toBe('challenge');
      return { exchange, text: (first as { challenge: Buffer }).challenge.toString() };
    };
    const one = await serverFirst();
    const two = await serverFirst();
    expect(one.text).toBe(two.text);
    expect(one.text).toMatch(/^r=abcsrv,s=[A-Za-z0-9+/=]+,i=8192$/);
    const result = await one.exchange.step(
      Buffer.from(`c=biws,r=abcsrv,p=${Buffer.alloc(32).toString('base64')}`),
    );
    expect(result.kind).toBe('rejected');
  });
});

describe('SDK client against broker mechanisms', () => {
  async function run(mechanism: 'PLAIN' | 'SCRAM-SHA-256' | 'SCRAM-SHA-512', password: string) {
    const users = usersOf([
      {
        name: 'alice,=x',
        credentials: {
          'SCRAM-SHA-256': await credential('SCRAM-SHA-256', 'right', randomBytes(16), 4096),
          'SCRAM-SHA-512': await credential('SCRAM-SHA-512', 'right', randomBytes(16), 8192),
        },
      },
    ]);
    const auth = saslAuthenticator([
      plainMechanism(users),
      scramMechanism('SCRAM-SHA-256', users, () => 'n256'),
      scramMechanism('SCRAM-SHA-512', users, () => 'n512'),
    ]).forConnection('10.0.0.1') as SaslConnectionAuth;
    expect(auth.handshake(mechanism, 1).errorCode).toBe(ErrorCode.NONE);
    const client = saslClientExchange({ mechanism, username: 'alice,=x', password });
    let bytes: Buffer | undefined = client.initialBytes();
    let answer = await auth.authenticate(bytes);
    while (answer.errorCode === ErrorCode.NONE) {
      bytes = await client.next(answer.authBytes);
      if (bytes === undefined) break;
      answer = await auth.authenticate(bytes);
    }
    return { auth, answer };
  }

  it.each(['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'] as const)(
    '%s authenticates the right password',
    async (mechanism) => {
      const { auth, answer } = await run(mechanism, 'right');
      expect(answer.errorCode).toBe(ErrorCode.NONE);
      expect(auth.state).toBe('authenticated');
      expect(auth.principal).toBe('User:alice,=x');
    },
  );

  it.each(['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'] as const)(
    '%s refuses a wrong password without echoing it',
    async (mechanism) => {
      const { auth, answer } = await run(mechanism, 'wrong-password');
      expect(answer.errorCode).toBe(ErrorCode.SASL_AUTHENTICATION_FAILED);
      expect(answer.errorMessage).not.toContain('wrong-password');
      expect(auth.state).toBe('failed');
      expect(auth.closeReason).toBeDefined();
    },
  );

  it('PLAIN refuses another authorization id and malformed messages', async () => {
    const users = usersOf([]);
    for (const message of ['admin\0alice\0right', 'alice\0right', '\0\0']) {
      const result = await plainMechanism(users).start().step(Buffer.from(message));
      expect(result.kind).toBe('rejected');
    }
  });
});
