import { describe, expect, it } from 'vitest';
import { BROKER_PRINCIPAL, INTERNAL_PRINCIPAL, weirTokenMechanism } from './weir-token-mechanism';

const TOKEN = 'the-right-token-0123456789';

function step(sent: string, token: () => string | undefined = () => TOKEN) {
  return weirTokenMechanism(token).start().step(Buffer.from(sent, 'utf8'));
}

describe('WEIR-TOKEN acting for a user (authzid NUL token)', () => {
  it('authenticates the bare token as the internal principal', async () => {
    expect(await step(TOKEN)).toMatchObject({ kind: 'authenticated', principal: INTERNAL_PRINCIPAL });
  });

  it('makes the named user the principal when the token is right', async () => {
    expect(await step(`User:alice\0${TOKEN}`)).toMatchObject({
      kind: 'authenticated',
      principal: 'User:alice',
    });
  });

  it.each([
    ['a wrong token', `User:alice\0wrong-token`],
    ['no token', 'User:alice\0'],
    ['the token before the authzid', `${TOKEN}\0User:alice`],
  ])('refuses %s without echoing it', async (_, sent) => {
    const result = await step(sent);
    expect(result.kind).toBe('rejected');
    expect(JSON.stringify(result)).not.toContain(TOKEN);
  });

  it.each([
    ['the internal principal itself', INTERNAL_PRINCIPAL],
    ['a principal that is not a user', 'Group:admins'],
    ['an empty name', 'User:'],
    ['an empty authzid', ''],
    ['a control character', 'User:al\u0001ice'],
  ])('refuses acting as %s', async (_, authzid) => {
    expect((await step(`${authzid}\0${TOKEN}`)).kind).toBe('rejected');
  });

  it('refuses acting for anyone while no token is known', async () => {
    expect((await step(`User:alice\0${TOKEN}`, () => undefined)).kind).toBe('rejected');
  });
});

describe('WEIR-TOKEN with a trusted client certificate in place of the token', () => {
  const TRUSTED = 'User:CN=weir-console';

  function stepWith(sent: string, certificatePrincipal: string | undefined) {
    return weirTokenMechanism(() => TOKEN, [TRUSTED])
      .start({ certificatePrincipal })
      .step(Buffer.from(sent, 'utf8'));
  }

  it('authenticates an empty token as the internal principal, or as the named user', async () => {
    expect(await stepWith('', TRUSTED)).toMatchObject({
      kind: 'authenticated',
      principal: INTERNAL_PRINCIPAL,
    });
    expect(await stepWith('User:alice\0', TRUSTED)).toMatchObject({
      kind: 'authenticated',
      principal: 'User:alice',
    });
    expect((await stepWith(`${INTERNAL_PRINCIPAL}\0`, TRUSTED)).kind).toBe('rejected');
  });

  it.each([
    ['an untrusted certificate', '', 'User:CN=mallory'],
    ['no certificate', '', undefined],
    ['no certificate, acting for a user', 'User:alice\0', undefined],
    ['a trusted certificate with a wrong token', 'wrong-token', TRUSTED],
    ['a trusted certificate with a wrong token, acting for a user', 'User:alice\0wrong-token', TRUSTED],
  ])('refuses %s', async (_, sent, certificatePrincipal) => {
    expect((await stepWith(sent, certificatePrincipal)).kind).toBe('rejected');
  });

  it('still accepts the right token with or without a certificate', async () => {
    expect((await stepWith(TOKEN, TRUSTED)).kind).toBe('authenticated');
    expect((await stepWith(TOKEN, undefined)).kind).toBe('authenticated');
  });

  it('trusts no certificate unless configured, and refuses an empty token while no token is known', async () => {
    const untrusting = weirTokenMechanism(() => undefined);
    expect((await untrusting.start({ certificatePrincipal: TRUSTED }).step(Buffer.alloc(0))).kind).toBe(
      'rejected',
    );
  });
});

describe('WEIR-TOKEN with a cluster secret', () => {
  const SECRET = 'the-cluster-secret-0123456789';
  const withSecret = (sent: string, secret: string | null = SECRET) =>
    weirTokenMechanism(
      () => TOKEN,
      [],
      () => secret ?? undefined,
    )
      .start()
      .step(Buffer.from(sent, 'utf8'));

  it('authenticates the secret as the broker principal and the token as before', async () => {
    expect(await withSecret(SECRET)).toMatchObject({ kind: 'authenticated', principal: BROKER_PRINCIPAL });
    expect(await withSecret(TOKEN)).toMatchObject({ kind: 'authenticated', principal: INTERNAL_PRINCIPAL });
  });

  it.each([
    ['a wrong secret', 'not-the-cluster-secret-000'],
    ['the secret acting for a user', `User:alice\0${SECRET}`],
    ['acting as the broker principal', `${BROKER_PRINCIPAL}\0${TOKEN}`],
  ])('refuses %s', async (_, sent) => {
    const result = await withSecret(sent);
    expect(result.kind).toBe('rejected');
    expect(JSON.stringify(result)).not.toContain(SECRET);
  });

  it('accepts no secret when none is configured', async () => {
    expect((await withSecret(SECRET, null)).kind).toBe('rejected');
  });
});
