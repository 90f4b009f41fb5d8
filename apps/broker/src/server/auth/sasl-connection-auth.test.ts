import { ApiVersions, ErrorCode, Metadata, SaslAuthenticate, SaslHandshake } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import { ANONYMOUS_PRINCIPAL } from './connection-auth';
import { saslAuthenticator } from './listener-authenticator';
import type { SaslConnectionAuth } from './sasl-connection-auth';
import { INTERNAL_PRINCIPAL, WEIR_TOKEN_MECHANISM, weirTokenMechanism } from './weir-token-mechanism';

const TOKEN = 'the-right-token-0123456789';

function connection(token: string | undefined = TOKEN): SaslConnectionAuth {
  return saslAuthenticator([weirTokenMechanism(() => token)]).forConnection(
    '127.0.0.1',
  ) as SaslConnectionAuth;
}

describe('SASL authentication of one connection (WEIR-TOKEN)', () => {
  it('lets only ApiVersions and the SASL APIs through before authentication', () => {
    const auth = connection();
    expect(auth.state).toBe('awaiting-handshake');
    expect(auth.principal).toBe(ANONYMOUS_PRINCIPAL);
    for (const api of [ApiVersions, SaslHandshake, SaslAuthenticate])
      expect(auth.permits(api.apiKey)).toBe(true);
    expect(auth.permits(Metadata.apiKey)).toBe(false);
    expect(auth.permits(32_000)).toBe(false);
  });

  it('authenticates the right token as the internal principal', async () => {
    const auth = connection();
    expect(auth.handshake(WEIR_TOKEN_MECHANISM, 1)).toEqual({
      errorCode: ErrorCode.NONE,
      mechanisms: [WEIR_TOKEN_MECHANISM],
    });
    expect(auth.state).toBe('awaiting-authenticate');
    expect(auth.permits(Metadata.apiKey)).toBe(false);
    const answer = await auth.authenticate(Buffer.from(TOKEN, 'utf8'));
    expect(answer.errorCode).toBe(ErrorCode.NONE);
    expect(auth.state).toBe('authenticated');
    expect(auth.principal).toBe(INTERNAL_PRINCIPAL);
    expect(auth.permits(Metadata.apiKey)).toBe(true);
    expect(auth.closeReason).toBeUndefined();
  });

  it.each([
    ['a wrong token', 'the-wrong-token-0123456789'],
    ['a prefix of the token', TOKEN.slice(0, -1)],
    ['the token and more', `${TOKEN}x`],
    ['nothing', ''],
  ])('refuses %s without echoing it, and fails the exchange', async (_, sent) => {
    const auth = connection();
    auth.handshake(WEIR_TOKEN_MECHANISM, 1);
    const answer = await auth.authenticate(Buffer.from(sent, 'utf8'));
    expect(answer.errorCode).toBe(ErrorCode.SASL_AUTHENTICATION_FAILED);
    if (sent !== '') expect(answer.errorMessage).not.toContain(sent);
    expect(answer.errorMessage).not.toContain(TOKEN);
    expect(auth.state).toBe('failed');
    expect(auth.closeReason).toBeDefined();
    expect(auth.principal).toBe(ANONYMOUS_PRINCIPAL);
    expect(auth.permits(Metadata.apiKey)).toBe(false);
  });

  it('refuses everyone while no token is known', async () => {
    const auth = connection(undefined);
    auth.handshake(WEIR_TOKEN_MECHANISM, 1);
    expect((await auth.authenticate(Buffer.alloc(0))).errorCode).toBe(ErrorCode.SASL_AUTHENTICATION_FAILED);
  });

  it('answers an unknown mechanism with the offered ones and fails the exchange', () => {
    const auth = connection();
    expect(auth.handshake('PLAIN', 1)).toEqual({
      errorCode: ErrorCode.UNSUPPORTED_SASL_MECHANISM,
      mechanisms: [WEIR_TOKEN_MECHANISM],
    });
    expect(auth.state).toBe('failed');
    expect(auth.closeReason).toBeDefined();
  });

  it('fails SaslAuthenticate before SaslHandshake as out of sequence', async () => {
    const auth = connection();
    const answer = await auth.authenticate(Buffer.from(TOKEN, 'utf8'));
    expect(answer.errorCode).toBe(ErrorCode.ILLEGAL_SASL_STATE);
    expect(auth.state).toBe('failed');
    expect(auth.closeReason).toBeDefined();
  });

  it('fails a second SaslHandshake before authentication', () => {
    const auth = connection();
    auth.handshake(WEIR_TOKEN_MECHANISM, 1);
    expect(auth.handshake(WEIR_TOKEN_MECHANISM, 1).errorCode).toBe(ErrorCode.ILLEGAL_SASL_STATE);
    expect(auth.state).toBe('failed');
    expect(auth.closeReason).toBeDefined();
  });

  it('keeps an authenticated connection on a later SASL request (no re-authentication)', async () => {
    const auth = connection();
    auth.handshake(WEIR_TOKEN_MECHANISM, 1);
    await auth.authenticate(Buffer.from(TOKEN, 'utf8'));
    expect(auth.handshake(WEIR_TOKEN_MECHANISM, 1).errorCode).toBe(ErrorCode.ILLEGAL_SASL_STATE);
    expect((await auth.authenticate(Buffer.from('x'))).errorCode).toBe(ErrorCode.ILLEGAL_SASL_STATE);
    expect(auth.state).toBe('authenticated');
    expect(auth.principal).toBe(INTERNAL_PRINCIPAL);
    expect(auth.closeReason).toBeUndefined();
  });
});
