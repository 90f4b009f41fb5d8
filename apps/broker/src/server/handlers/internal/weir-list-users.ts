import { WeirListUsers } from '@weir/protocol';
import { API_ACL_RULES } from '../../../security/acl/api-acl-rules';
import { deniedError, NO_ERROR } from '../../answers/top-level-error';
import { defineHandler } from '../../handler';

const RULES = API_ACL_RULES.WeirListUsers;

/**
 * WeirListUsers v0–1: the SASL users (v1: only those named, when named) with their mechanisms and
 * iterations and (v1) their credential fingerprints, never salts or keys.
 */
export const weirListUsersHandler = defineHandler({
  api: WeirListUsers,
  versions: { min: 0, max: 1 },
  async handle(request, context, services) {
    if (!context.access.allows(RULES.cluster)) return { ...deniedError(RULES.cluster), users: [] };
    const users = services.users.listUsers(request.usernames).map((user) => ({
      name: user.name,
      credentials: user.credentials.map((credential) => ({ ...credential })),
      credentialFingerprint: user.credentialFingerprint,
    }));
    return { ...NO_ERROR, users };
  },
});
