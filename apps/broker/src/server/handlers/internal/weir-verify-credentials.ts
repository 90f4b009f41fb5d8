import { WeirVerifyCredentials } from '@weir/protocol';
import { API_ACL_RULES } from '../../../security/acl/api-acl-rules';
import { deniedError } from '../../answers/top-level-error';
import { defineHandler } from '../../handler';

const RULES = API_ACL_RULES.WeirVerifyCredentials;

/**
 * WeirVerifyCredentials v0–1: the console's login check (v1 answers the user's credential
 * fingerprint with a success). Failures are slowed down per end-user
 * address when the caller passes it, else per username: every login reaches the broker from the
 * console's one address, so counting by the connection's address would let one guesser slow
 * everybody down.
 */
export const weirVerifyCredentialsHandler = defineHandler({
  api: WeirVerifyCredentials,
  versions: { min: 0, max: 1 },
  async handle(request, context, services) {
    const refused = { principal: null, credentialFingerprint: null };
    if (!context.access.allows(RULES.cluster)) return { ...deniedError(RULES.cluster), ...refused };
    const source =
      request.remoteAddress === null ? `user:${request.username}` : `address:${request.remoteAddress}`;
    try {
      const verified = await services.users.verifyCredentials(request.username, request.password, source);
      return { errorCode: 0, errorMessage: null, ...verified };
    } catch (error) {
      return { ...context.failure(error), ...refused };
    }
  },
});
