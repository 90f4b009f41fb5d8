import { Writable } from 'node:stream';
import {
  decodeResponseFrame,
  ErrorCode,
  encodeRequestFrame,
  isDeferredBytes,
  ListOffsets,
  WeirDeleteUser,
  WeirError,
} from '@weir/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { requestObserver } from '../broker-observers';
import { type ItemResult, resultOf } from '../errors/item-result';
import { systemGroupScheduler } from '../group/group-scheduler';
import { type BrokerMetrics, createBrokerMetrics } from '../http/metrics';
import { createLogger } from '../logger';
import { API_ACL_RULES } from '../security/acl/api-acl-rules';
import { Authorizer } from '../security/acl/authorizer';
import { TrafficRates } from '../stats/traffic-rates';
import { WarningLimiter } from '../warning-limiter';
import { answerTopicPartitions } from './answers/answer-topic-partitions';
import { NO_ERROR } from './answers/top-level-error';
import { noAuthentication } from './auth/listener-authenticator';
import { Dispatcher, type DispatchOutcome } from './dispatcher';
import { defineHandler } from './handler';
import { HandlerRegistry } from './handler-registry';
import { HeldRequestBytes } from './held-request-bytes';

/**
 * What the test handlers call: partition 0 has offset 42, partition 1 fails with a bug (a plain
 * TypeError, as a broken service would throw), partition 2 is led elsewhere (an expected failure);
 * deleting a user always hits the bug.
 */
class PartitionOffsets {
  async offsetOf(partition: number): Promise<number> {
    if (partition === 1) throw new TypeError('offsets is undefined');
    if (partition === 2) throw new WeirError(ErrorCode.NOT_LEADER_OR_FOLLOWER);
    return 42;
  }

  async deleteUser(_username: string): Promise<void> {
    throw new TypeError('users is undefined');
  }
}

/** A per-partition API: each partition is one service call, answered through the context. */
const listOffsetsHandler = defineHandler<typeof ListOffsets, PartitionOffsets>({
  api: ListOffsets,
  versions: { min: 1, max: 3 },
  async handle(request, context, services) {
    const topics = await answerTopicPartitions(
      request.topics,
      context.access,
      API_ACL_RULES.ListOffsets.topic,
      async (_topic, partition) => {
        const result: ItemResult<number> = await resultOf(() => services.offsetOf(partition.partitionIndex));
        return {
          partitionIndex: partition.partitionIndex,
          errorCode: result.ok ? ErrorCode.NONE : context.errorOf(result).errorCode,
          oldStyleOffsets: [],
          timestamp: -1n,
          offset: result.ok ? BigInt(result.value) : -1n,
          leaderEpoch: -1,
        };
      },
      (partition) => ({
        partitionIndex: partition.partitionIndex,
        errorCode: 0,
        oldStyleOffsets: [],
        timestamp: -1n,
        offset: -1n,
        leaderEpoch: -1,
      }),
    );
    return { throttleTimeMs: 0, topics };
  },
});

/** A Weir-only API with a top-level error, whose service throws. */
const deleteUserHandler = defineHandler<typeof WeirDeleteUser, PartitionOffsets>({
  api: WeirDeleteUser,
  versions: { min: 0, max: 0 },
  async handle(request, context, services) {
    try {
      await services.deleteUser(request.username);
      return NO_ERROR;
    } catch (error) {
      return context.failure(error);
    }
  },
});

/** A destination that keeps the JSON lines written to it. */
function logLines(): Writable & { lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  const lines = () =>
    chunks
      .join('')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return Object.assign(stream, { lines });
}

async function errorCount(metrics: BrokerMetrics, api: string, error: string): Promise<number> {
  const counted = await metrics.requestErrorsTotal.get();
  return counted.values.find((value) => value.labels.api === api && value.labels.error === error)?.value ?? 0;
}

function responseBytes(outcome: DispatchOutcome): Buffer {
  if (outcome.kind !== 'respond') throw new Error(`expected a response, got ${outcome.kind}`);
  // The parts are one frame: int32 size, then the response header and body; none is deferred here.
  if (outcome.parts.some(isDeferredBytes)) throw new Error('expected bytes, got a deferred part');
  return Buffer.concat(outcome.parts as Uint8Array[]).subarray(4);
}

describe('Dispatcher: a service failure that is not a WeirError', () => {
  let destination: ReturnType<typeof logLines>;
  let metrics: BrokerMetrics;
  let dispatcher: Dispatcher<PartitionOffsets>;
  let connection: AbortController;

  beforeEach(() => {
    destination = logLines();
    metrics = createBrokerMetrics();
    const observation = {
      metrics,
      logger: createLogger({ level: 'info', pretty: false, destination }),
      traffic: new TrafficRates({ nowMs: () => Date.now() }),
      openConnections: () => 1,
      heldRequestBytes: new HeldRequestBytes(),
      warnings: new WarningLimiter(
        { maxPerInterval: 1000, intervalMs: 60_000 },
        {
          warningsTotal: metrics.logWarningsTotal,
          warningsSuppressedTotal: metrics.logWarningsSuppressedTotal,
        },
        systemGroupScheduler,
      ),
    };
    dispatcher = new Dispatcher({
      registry: new HandlerRegistry<PartitionOffsets>([listOffsetsHandler, deleteUserHandler]),
      services: new PartitionOffsets(),
      observer: requestObserver(observation, 'client'),
      listenerName: 'client',
      authorizer: new Authorizer({ superUsers: [], allowEveryoneIfNoAclFound: true, bindings: () => [] }),
    });
    connection = new AbortController();
  });

  afterEach(() => connection.abort());

  const facts = () => ({
    auth: noAuthentication.forConnection('127.0.0.1'),
    clientHost: '127.0.0.1',
    signal: connection.signal,
  });

  it('answers the failed partition UNKNOWN_SERVER_ERROR, the others their own, and logs the cause', async () => {
    const request = encodeRequestFrame(ListOffsets, 2, 7, 'test', {
      replicaId: -1,
      isolationLevel: 0,
      topics: [
        {
          name: 'orders',
          partitions: [0, 1, 2].map((partitionIndex) => ({
            partitionIndex,
            currentLeaderEpoch: -1,
            timestamp: -1n,
            maxNumOffsets: 1,
          })),
        },
      ],
    });
    const outcome = await dispatcher.dispatch(request.subarray(4), facts());

    const decoded = decodeResponseFrame(ListOffsets, 2, responseBytes(outcome));
    if (!decoded.ok) throw decoded.error;
    const partitions = decoded.value.body.topics[0]!.partitions;
    expect(
      partitions.map(({ partitionIndex, errorCode, offset }) => [partitionIndex, errorCode, offset]),
    ).toEqual([
      [0, ErrorCode.NONE, 42n],
      [1, ErrorCode.UNKNOWN_SERVER_ERROR, -1n],
      [2, ErrorCode.NOT_LEADER_OR_FOLLOWER, -1n],
    ]);

    // Only the bug is logged, at error level, with the API and the stack; the WeirError is not.
    const errors = destination.lines().filter((line) => line.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      component: 'request',
      listener: 'client',
      api: 'ListOffsets',
      version: 2,
      msg: 'answered UNKNOWN_SERVER_ERROR',
      err: { type: 'TypeError', message: 'offsets is undefined' },
    });
    expect((errors[0]!.err as { stack: string }).stack).toMatch(/^TypeError: offsets is undefined\n\s+at /);
    // Each error code the answer carries is counted once.
    expect(await errorCount(metrics, 'ListOffsets', 'UNKNOWN_SERVER_ERROR')).toBe(1);
    expect(await errorCount(metrics, 'ListOffsets', 'NOT_LEADER_OR_FOLLOWER')).toBe(1);
  });

  it('answers a Weir-only API with UNKNOWN_SERVER_ERROR and no message, keeps the connection, and logs', async () => {
    const request = encodeRequestFrame(WeirDeleteUser, 0, 8, 'test', { username: 'alice', mechanism: null });
    const outcome = await dispatcher.dispatch(request.subarray(4), facts());

    expect(outcome).toMatchObject({ kind: 'respond' });
    expect(outcome).not.toHaveProperty('closeAfter');
    const decoded = decodeResponseFrame(WeirDeleteUser, 0, responseBytes(outcome));
    if (!decoded.ok) throw decoded.error;
    expect(decoded.value.body).toEqual({ errorCode: ErrorCode.UNKNOWN_SERVER_ERROR, errorMessage: null });
    const errors = destination.lines().filter((line) => line.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      api: 'WeirDeleteUser',
      msg: 'answered UNKNOWN_SERVER_ERROR',
      err: { type: 'TypeError', message: 'users is undefined' },
    });
    expect(await errorCount(metrics, 'WeirDeleteUser', 'UNKNOWN_SERVER_ERROR')).toBe(1);
  });
});
