import { generatePassword, setUserPassword } from '../../services/users';
import { rest } from '../rest-meta';
import { emptyInputSchema } from '../schemas/common';
import {
  userCreateInputSchema,
  userCreateResultSchema,
  userDeleteResultSchema,
  userListSchema,
  userRefInputSchema,
  userSetPasswordInputSchema,
  userSetPasswordResultSchema,
} from '../schemas/users';
import type { Transport } from '../transport';
import { createTRPCRouter, restProcedure } from '../trpc';

const TAG = 'users';

/** SASL users: listing needs DESCRIBE on the cluster, changes ALTER, checked by the broker. */
export function usersRouter(transport: Transport) {
  return createTRPCRouter({
    list: restProcedure(
      transport,
      rest(TAG, 'GET', '/users', 'SASL users and their SCRAM credentials'),
      emptyInputSchema,
    )
      .output(userListSchema)
      .query(async ({ ctx }) => ({
        asOfMs: ctx.services.now(),
        users: (await ctx.services.broker.users().listUsers())
          .map((user) => ({ name: user.name, credentials: user.credentials.map((c) => ({ ...c })) }))
          .sort((a, b) => a.name.localeCompare(b.name)),
      })),

    create: restProcedure(
      transport,
      rest(TAG, 'POST', '/users', 'Create a user with a generated password, answered once'),
      userCreateInputSchema,
    )
      .output(userCreateResultSchema)
      .mutation(async ({ ctx, input }) => {
        const password = generatePassword();
        await ctx.services.broker
          .users()
          .upsertUser({ username: input.username, mechanism: input.mechanism, password });
        // Creating an existing user replaces that mechanism's credential, as a new password does.
        await ctx.services.credentialsChanged?.(input.username);
        return { asOfMs: ctx.services.now(), username: input.username, mechanism: input.mechanism, password };
      }),

    setPassword: restProcedure(
      transport,
      rest(
        TAG,
        'PUT',
        '/users/{username}/password',
        'Change the password of a user: the one given, or a generated one answered once',
        'Every credential of the user (SCRAM-SHA-256 and/or -512) gets the new password and keeps its ' +
          'mechanism and iterations, so the old password stops working everywhere. A typed password has at ' +
          'least 8 characters; an unknown user is 404.',
      ),
      userSetPasswordInputSchema,
    )
      .output(userSetPasswordResultSchema)
      .mutation(async ({ ctx, input }) => {
        const result = await setUserPassword(ctx.services.broker.users(), input, ctx.services.now);
        await ctx.services.credentialsChanged?.(input.username);
        return result;
      }),

    delete: restProcedure(
      transport,
      rest(TAG, 'DELETE', '/users/{username}', 'Delete a user'),
      userRefInputSchema,
    )
      .output(userDeleteResultSchema)
      .mutation(async ({ ctx, input }) => {
        await ctx.services.broker.users().deleteUser(input.username);
        await ctx.services.credentialsChanged?.(input.username);
        return { asOfMs: ctx.services.now(), username: input.username, deleted: true as const };
      }),
  });
}
