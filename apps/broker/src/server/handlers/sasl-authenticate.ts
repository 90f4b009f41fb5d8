import { SaslAuthenticate } from '@weir/protocol';
import { type ApiHandler, defineHandler } from '../handler';

/**
 * SaslAuthenticate up to `maxVersion`: one round of the mechanism chosen by SaslHandshake. A
 * refusal answers SASL_AUTHENTICATION_FAILED and the connection closes after the answer. The
 * session lifetime is 0 because re-authentication is not offered (kafkajs would schedule one for
 * anything above 0).
 */
function saslAuthenticateUpTo(maxVersion: number): ApiHandler<typeof SaslAuthenticate> {
  return defineHandler({
    api: SaslAuthenticate,
    versions: { min: 0, max: maxVersion },
    async handle(request, context) {
      const answer = await context.auth.authenticate(request.authBytes);
      return { ...answer, sessionLifetimeMs: 0n };
    },
  });
}

/** The internal listener's: v0–2 (v2 is flexible, which only the client listener must avoid). */
export const saslAuthenticateHandler = saslAuthenticateUpTo(2);

/** The client listener's: v0–1, since it advertises no flexible version but ApiVersions v3. */
export const clientSaslAuthenticateHandler = saslAuthenticateUpTo(1);
