import { SaslAuthenticate } from '@weir/protocol';
import { defineHandler } from '../handler';

/**
 * SaslAuthenticate v0–2: one round of the mechanism chosen by SaslHandshake. A refusal answers
 * SASL_AUTHENTICATION_FAILED and the connection closes after the answer. The session lifetime is
 * 0 because re-authentication is not offered (kafkajs would schedule one for anything above 0).
 */
export const saslAuthenticateHandler = defineHandler({
  api: SaslAuthenticate,
  versions: { min: 0, max: 2 },
  async handle(request, context) {
    const answer = await context.auth.authenticate(request.authBytes);
    return { ...answer, sessionLifetimeMs: 0n };
  },
});
