import { createAcl, deleteAcl, generatePassword, listAcls } from '../../services/security';
import { rest } from '../rest-meta';
import { emptyInputSchema } from '../schemas/common';
import {
  aclBindingSchema,
  aclCreateResultSchema,
  aclDeleteResultSchema,
  aclListInputSchema,
  aclListSchema,
  userCreateInputSchema,
  userCreateResultSchema,
  userDeleteResultSchema,
  userListSchema,
  userRefInputSchema,
} from '../schemas/security';
import type { Transport } from '../transport';
import { createTRPCRouter, restProcedure } from '../trpc';

/** ACLs: the broker authorizes each call (DESCRIBE / ALTER on the cluster) as the caller. */
export function aclsRouter(transport: Transport) {
  return createTRPCRouter({
    list: restProcedure(
      transport,
      rest('acls', 'GET', '/acls', 'ACLs, filtered by principal, resource type and resource name'),
      aclListInputSchema,
    )
      .output(aclListSchema)
      .query(({ ctx, input }) => listAcls(ctx.services.broker.admin(), input, ctx.services.now)),
    create: restProcedure(transport, rest('acls', 'POST', '/acls', 'Create an ACL'), aclBindingSchema)
      .output(aclCreateResultSchema)
      .mutation(async ({ ctx, input }) => {
        await createAcl(ctx.services.broker.admin(), input);
        return { asOfMs: ctx.services.now(), created: true as const };
      }),
    delete: restProcedure(
      transport,
      rest('acls', 'POST', '/acls/delete', 'Delete exactly one ACL (all its fields given)'),
      aclBindingSchema,
    )
      .output(aclDeleteResultSchema)
      .mutation(async ({ ctx, input }) => ({
        asOfMs: ctx.services.now(),
        deleted: await deleteAcl(ctx.services.broker.admin(), input),
      })),
  });
}

/** SASL users: listing needs DESCRIBE on the cluster, changes ALTER, checked by the broker. */
export function usersRouter(transport: Transport) {
  return createTRPCRouter({
    list: restProcedure(
      transport,
      rest('users', 'GET', '/users', 'SASL users and their SCRAM credentials'),
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
      rest('users', 'POST', '/users', 'Create a user with a generated password, answered once'),
      userCreateInputSchema,
    )
      .output(userCreateResultSchema)
      .mutation(async ({ ctx, input }) => {
        const password = generatePassword();
        await ctx.services.broker
          .users()
          .upsertUser({ username: input.username, mechanism: input.mechanism, password });
        return { asOfMs: ctx.services.now(), username: input.username, mechanism: input.mechanism, password };
      }),
    delete: restProcedure(
      transport,
      rest('users', 'DELETE', '/users/{username}', 'Delete a user'),
      userRefInputSchema,
    )
      .output(userDeleteResultSchema)
      .mutation(async ({ ctx, input }) => {
        await ctx.services.broker.users().deleteUser(input.username);
        return { asOfMs: ctx.services.now(), username: input.username, deleted: true as const };
      }),
  });
}
