import { tracked } from '@trpc/server';
import { type GatewayServices, schemasOf } from '../../gateway-services';
import type { SearchDeps } from '../../services/message-search';
import { DEFAULT_TAIL_LIMITS, streamTail } from '../../services/message-tail';
import { browseMessages, getMessage, produceMessage, streamSearch } from '../../services/messages';
import { requireTopicAction } from '../../services/permissions/topic-permissions';
import type { TopicDecoders } from '../../services/schema-store';
import { toTrpcError } from '../errors';
import { rest } from '../rest-meta';
import { tailInputSchema } from '../schemas/message-tail';
import {
  browseInputSchema,
  browseResultSchema,
  getMessageInputSchema,
  getMessageResultSchema,
  produceInputSchema,
  produceResultSchema,
  searchInputSchema,
} from '../schemas/messages';
import type { Transport } from '../transport';
import type { GatewayContext } from '../trpc';
import { createTRPCRouter, publicProcedure, restProcedure } from '../trpc';

const TAG = 'messages';

function searchDeps(ctx: GatewayContext): SearchDeps {
  const { broker, now } = ctx.services;
  return { admin: broker.admin(), internal: broker.internal(), now };
}

/** The topic's decoders when the request asks `decode=schema`. */
async function decodersOf(
  services: GatewayServices,
  input: { topic: string; decode: 'none' | 'schema' },
): Promise<TopicDecoders | undefined> {
  return input.decode === 'schema' ? schemasOf(services).decodersFor(input.topic) : undefined;
}

export function messagesRouter(transport: Transport) {
  return createTRPCRouter({
    browse: restProcedure(
      transport,
      rest(
        TAG,
        'GET',
        '/topics/{topic}/messages',
        'One page of messages (exact per-partition cursors)',
        'Pass `nextCursor` as `cursor` for the next page. For the previous page, repeat the request with the cursor used before it (clients keep the stack).',
      ),
      browseInputSchema,
    )
      .output(browseResultSchema)
      .query(async ({ ctx, input }) =>
        browseMessages(
          searchDeps(ctx),
          input,
          ctx.services.searchLimits,
          await decodersOf(ctx.services, input),
        ),
      ),

    /**
     * The same search streamed (tRPC subscription over SSE): phase, progress (throttled), rows in
     * batches, done. Not part of REST: OpenAPI has no streams.
     */
    search: publicProcedure.input(searchInputSchema).subscription(async function* ({ ctx, input, signal }) {
      try {
        const decoders = await decodersOf(ctx.services, input);
        yield* streamSearch(searchDeps(ctx), input, ctx.services.searchLimits, signal, decoders);
      } catch (error) {
        throw toTrpcError(error);
      }
    }),

    /**
     * The live tail (tRPC subscription over SSE): the records appended from now on, filtered as the
     * search filters them, until the client unsubscribes. Not part of REST, for the same reason.
     */
    tail: publicProcedure.input(tailInputSchema).subscription(async function* ({ ctx, input, signal }) {
      const deps = { ...searchDeps(ctx), openClient: () => ctx.services.broker.dedicatedClient() };
      const limits = ctx.services.tailLimits ?? DEFAULT_TAIL_LIMITS;
      try {
        const { lastEventId, ...tail } = input;
        const events = streamTail(
          deps,
          { ...tail, cursor: lastEventId ?? tail.cursor },
          limits,
          ctx.services.searchLimits,
          signal ?? new AbortController().signal,
          await decodersOf(ctx.services, input),
        );
        // Each event's id is the cursor after it: a client whose connection dropped reconnects
        // with it as `lastEventId` and misses nothing (what came meanwhile is read first, within
        // the rate cap, and what the cap passes over is counted as skipped).
        for await (const event of events) {
          // Never empty: a tail has at least one partition (the input refuses an empty list).
          if (event.cursor === '') throw new Error('invariant: a live tail event without a cursor');
          yield tracked(event.cursor, event);
        }
      } catch (error) {
        throw toTrpcError(error);
      }
    }),

    get: restProcedure(
      transport,
      rest(
        TAG,
        'GET',
        '/topics/{topic}/partitions/{partition}/records/{offset}',
        'One record by topic, partition and offset (permalink)',
        'No record at the offset (outside the log, or removed by compaction) is 404 with RESOURCE_NOT_FOUND.',
      ),
      getMessageInputSchema,
    )
      .output(getMessageResultSchema)
      .query(async ({ ctx, input }) => {
        const decoders = await decodersOf(ctx.services, input);
        const record = await getMessage({ internal: ctx.services.broker.internal() }, input, decoders);
        return { asOfMs: ctx.services.now(), topic: input.topic, record };
      }),

    produce: restProcedure(
      transport,
      rest(TAG, 'POST', '/topics/{topic}/messages', 'Produce one record'),
      produceInputSchema,
    )
      .output(produceResultSchema)
      .mutation(async ({ ctx, input }) => {
        await requireTopicAction(ctx.services.broker.admin(), input.topic, 'produce');
        const stored = await produceMessage(
          (compression) => ctx.services.broker.producer(compression),
          input,
        );
        return {
          asOfMs: ctx.services.now(),
          topic: input.topic,
          partition: stored.partition,
          offset: stored.offset.toString(),
          timestampMs: stored.timestampMs,
        };
      }),
  });
}
