import { TRPCError } from '@trpc/server';
import { ErrorCode, WeirError } from '@weir/protocol';
import { type GatewayServices, schemasOf } from '../../gateway-services';
import { decoderFor } from '../../services/decoders/schema-decoder';
import { requireAllowed } from '../../services/permissions/action-permission';
import { topicAllowedActions } from '../../services/permissions/topic-permissions';
import { rest } from '../rest-meta';
import {
  deleteSchemaResultSchema,
  putSchemaInputSchema,
  schemaResultSchema,
  schemaSideRefInputSchema,
  topicSchemasResultSchema,
} from '../schemas/topic-schemas';
import { topicRefInputSchema } from '../schemas/topics';
import type { Transport } from '../transport';
import { createTRPCRouter, restProcedure } from '../trpc';

const TAG = 'schemas';

/**
 * Changing a topic's schemas needs what editing its configs needs (ALTER_CONFIGS in login mode):
 * the store writes with the console's own clients, so the check is made here. The topic must exist.
 */
async function requireSchemaChange(services: GatewayServices, topic: string): Promise<void> {
  const [description] = await services.broker.admin().describeTopics([topic]);
  const facts = { name: topic, internal: description?.isInternal ?? false };
  const acl = services.aclPolicy === undefined ? undefined : await services.aclPolicy();
  requireAllowed(
    topicAllowedActions(facts, acl).editConfigs,
    (reason) => new TRPCError({ code: 'FORBIDDEN', message: reason }),
  );
}

export function schemasRouter(transport: Transport) {
  return createTRPCRouter({
    forTopic: restProcedure(
      transport,
      rest(TAG, 'GET', '/topics/{topic}/schemas', 'The key and value schemas of a topic (null when none)'),
      topicRefInputSchema,
    )
      .output(topicSchemasResultSchema)
      .query(async ({ ctx, input }) => {
        const store = schemasOf(ctx.services);
        const [key, value] = await Promise.all([
          store.get(input.topic, 'key'),
          store.get(input.topic, 'value'),
        ]);
        return { asOfMs: ctx.services.now(), topic: input.topic, key: key ?? null, value: value ?? null };
      }),

    get: restProcedure(
      transport,
      rest(TAG, 'GET', '/topics/{topic}/schemas/{side}', 'One schema of a topic', 'None uploaded is 404.'),
      schemaSideRefInputSchema,
    )
      .output(schemaResultSchema)
      .query(async ({ ctx, input }) => {
        const schema = await schemasOf(ctx.services).get(input.topic, input.side);
        if (schema === undefined) {
          throw new WeirError(ErrorCode.RESOURCE_NOT_FOUND, {
            detail: `${input.topic} has no ${input.side} schema.`,
          });
        }
        return { asOfMs: ctx.services.now(), schema };
      }),

    put: restProcedure(
      transport,
      rest(
        TAG,
        'PUT',
        '/topics/{topic}/schemas/{side}',
        'Upload the Avro or Protobuf schema of a topic’s keys or values',
        'The schema is parsed with avsc or protobufjs first: one they refuse is 400 naming the field (`schema`, `messageType`) and the library’s reason. Replaces an earlier schema of the same side.',
      ),
      putSchemaInputSchema,
    )
      .output(schemaResultSchema)
      .mutation(async ({ ctx, input }) => {
        const { topic, side, ...schema } = input;
        // Throws a SchemaProblem (400) before anything is stored.
        decoderFor(schema);
        await requireSchemaChange(ctx.services, topic);
        const stored = await schemasOf(ctx.services).put(topic, side, schema, ctx.services.now());
        return { asOfMs: ctx.services.now(), schema: stored };
      }),

    delete: restProcedure(
      transport,
      rest(TAG, 'DELETE', '/topics/{topic}/schemas/{side}', 'Delete a schema', 'None uploaded is 404.'),
      schemaSideRefInputSchema,
    )
      .output(deleteSchemaResultSchema)
      .mutation(async ({ ctx, input }) => {
        await requireSchemaChange(ctx.services, input.topic);
        if (!(await schemasOf(ctx.services).delete(input.topic, input.side))) {
          throw new WeirError(ErrorCode.RESOURCE_NOT_FOUND, {
            detail: `${input.topic} has no ${input.side} schema.`,
          });
        }
        return { asOfMs: ctx.services.now(), topic: input.topic, side: input.side, deleted: true as const };
      }),
  });
}
