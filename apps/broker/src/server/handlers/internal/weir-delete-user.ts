import { WeirDeleteUser } from '@weir/protocol';
import { API_ACL_RULES } from '../../../security/acl/api-acl-rules';
import { deniedError, NO_ERROR } from '../../answers/top-level-error';
import { defineHandler } from '../../handler';

const RULES = API_ACL_RULES.WeirDeleteUser;

/** WeirDeleteUser v0: removes a user, or one of its credentials. */
export const weirDeleteUserHandler = defineHandler({
  api: WeirDeleteUser,
  versions: { min: 0, max: 0 },
  async handle(request, context, services) {
    if (!context.access.allows(RULES.cluster)) return deniedError(RULES.cluster);
    try {
      await services.users.deleteUser(request.username, request.mechanism ?? undefined);
      return { ...NO_ERROR };
    } catch (error) {
      return context.failure(error);
    }
  },
});
