import { WeirUpsertUser } from '@weir/protocol';
import { API_ACL_RULES } from '../../../security/acl/api-acl-rules';
import { deniedError, NO_ERROR } from '../../answers/top-level-error';
import { defineHandler } from '../../handler';

const RULES = API_ACL_RULES.WeirUpsertUser;

/** WeirUpsertUser v0: creates a user or replaces one of its SCRAM credentials. */
export const weirUpsertUserHandler = defineHandler({
  api: WeirUpsertUser,
  versions: { min: 0, max: 0 },
  async handle(request, context, services) {
    if (!context.access.allows(RULES.cluster)) return deniedError(RULES.cluster);
    try {
      await services.users.upsertUser({
        username: request.username,
        mechanism: request.mechanism,
        // 0 on the wire asks for the broker's default.
        ...(request.iterations === 0 ? {} : { iterations: request.iterations }),
        ...(request.password === null ? {} : { password: request.password }),
        ...(request.salt === null ? {} : { salt: request.salt }),
        ...(request.saltedPassword === null ? {} : { saltedPassword: request.saltedPassword }),
      });
      return { ...NO_ERROR };
    } catch (error) {
      return context.failure(error);
    }
  },
});
