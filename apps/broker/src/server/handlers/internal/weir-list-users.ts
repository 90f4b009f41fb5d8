import { WeirListUsers } from '@weir/protocol';
import { API_ACL_RULES } from '../../../security/acl/api-acl-rules';
import { deniedError, NO_ERROR } from '../../answers/top-level-error';
import { defineHandler } from '../../handler';

const RULES = API_ACL_RULES.WeirListUsers;

/** WeirListUsers v0: the SASL users with their mechanisms and iterations, never salts or keys. */
export const weirListUsersHandler = defineHandler({
  api: WeirListUsers,
  versions: { min: 0, max: 0 },
  async handle(_request, context, services) {
    if (!context.access.allows(RULES.cluster)) return { ...deniedError(RULES.cluster), users: [] };
    const users = services.users.listUsers().map((user) => ({
      name: user.name,
      credentials: user.credentials.map((credential) => ({ ...credential })),
    }));
    return { ...NO_ERROR, users };
  },
});
