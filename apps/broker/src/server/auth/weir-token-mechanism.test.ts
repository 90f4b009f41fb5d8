import { describe, expect, it } from 'vitest';
import { INTERNAL_PRINCIPAL, weirTokenMechanism } from './weir-token-mechanism';

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
