import { applyAclIntent, createAcl, deleteAcl, listAcls, previewAclIntent } from '../../services/acls';
import { describeEffectivePermissions } from '../../services/effective-permissions';
import { rest } from '../rest-meta';
import { aclIntentApplyResultSchema, aclIntentPreviewSchema, aclIntentSchema } from '../schemas/acl-intents';
import {
  aclBindingSchema,
  aclCreateResultSchema,
  aclDeleteResultSchema,
  aclListInputSchema,
  aclListSchema,
} from '../schemas/acls';
import {
  effectivePermissionsInputSchema,
  effectivePermissionsSchema,
} from '../schemas/effective-permissions';
import type { Transport } from '../transport';
import { createTRPCRouter, restProcedure } from '../trpc';

const TAG = 'acls';

/**
 * ACLs. Every call runs as the caller, so the broker authorizes it: DESCRIBE on the cluster to
 * read ACLs, ALTER to change them; a refusal is a 403 with the Kafka code.
 */
export function aclsRouter(transport: Transport) {
  return createTRPCRouter({
    list: restProcedure(
      transport,
      rest(TAG, 'GET', '/acls', 'ACLs, filtered by principal, resource type and resource name'),
      aclListInputSchema,
    )
      .output(aclListSchema)
      .query(({ ctx, input }) => listAcls(ctx.services.broker.admin(), input, ctx.services.now)),

    create: restProcedure(transport, rest(TAG, 'POST', '/acls', 'Create an ACL'), aclBindingSchema)
      .output(aclCreateResultSchema)
      .mutation(async ({ ctx, input }) => {
        await createAcl(ctx.services.broker.admin(), input);
        return { asOfMs: ctx.services.now(), created: true as const };
      }),

    delete: restProcedure(
      transport,
      rest(TAG, 'POST', '/acls/delete', 'Delete exactly one ACL (all its fields given)'),
      aclBindingSchema,
    )
      .output(aclDeleteResultSchema)
      .mutation(async ({ ctx, input }) => ({
        asOfMs: ctx.services.now(),
        deleted: await deleteAcl(ctx.services.broker.admin(), input),
      })),

    previewIntent: restProcedure(
      transport,
      rest(
        TAG,
        'GET',
        '/acls/intents/preview',
        'The ACLs an intent (produce / consume) expands to, each marked when it exists already',
        'Mirrors `kafka-acls --producer/--consumer`: produce is WRITE, DESCRIBE and CREATE on the topic, ' +
          'WRITE and DESCRIBE on a transactional id, IDEMPOTENT_WRITE on the cluster when idempotent; ' +
          'consume is READ and DESCRIBE on the topic and READ on the group. Every ACL is an ALLOW. ' +
          '`lockout` lists who loses access once the missing ACLs exist: with allow.everyone.if.no.acl.found ' +
          'on, the first ACL on a resource closes it to every principal it does not grant. It is computed by ' +
          "the broker's effective permissions for the principals the broker knows (its SASL users and the " +
          'principals ACLs name); others cannot be listed. Needs DESCRIBE on the cluster.',
      ),
      aclIntentSchema,
    )
      .output(aclIntentPreviewSchema)
      .query(({ ctx, input }) =>
        previewAclIntent(
          ctx.services.broker.admin(),
          {
            users: ctx.services.broker.users(),
            permissions: ctx.services.broker.effectivePermissions(),
            now: ctx.services.now,
          },
          input,
          ctx.services.now,
        ),
      ),

    applyIntent: restProcedure(
      transport,
      rest(
        TAG,
        'POST',
        '/acls/intents/apply',
        'Create the ACLs of an intent the broker does not have yet, in one CreateAcls call',
      ),
      aclIntentSchema,
    )
      .output(aclIntentApplyResultSchema)
      .mutation(({ ctx, input }) => applyAclIntent(ctx.services.broker.admin(), input, ctx.services.now)),

    effective: restProcedure(
      transport,
      rest(
        TAG,
        'GET',
        '/acls/effective',
        "What one principal may do on each resource, as the broker's authorizer decides",
        'Needs DESCRIBE on the cluster unless the caller asks about itself (403 CLUSTER_AUTHORIZATION_FAILED ' +
          'otherwise). Each operation carries the verdict, the reason and the ACLs that decided it.',
      ),
      effectivePermissionsInputSchema,
    )
      .output(effectivePermissionsSchema)
      .query(({ ctx, input }) =>
        describeEffectivePermissions(ctx.services.broker.effectivePermissions(), input, ctx.services.now),
      ),
  });
}
