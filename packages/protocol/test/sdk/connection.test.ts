import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Connection } from '../../src/client/connection';
import type { ConnectionStatus } from '../../src/client/connection-status';
import { ErrorCode } from '../../src/errors/error-codes';
import { WeirError } from '../../src/errors/weir-error';
import { ApiVersions } from '../../src/messages/apis/api-versions';
import { Fetch } from '../../src/messages/apis/fetch';
import { Metadata } from '../../src/messages/apis/metadata';
import { Produce } from '../../src/messages/apis/produce';
import { encodeResponseFrame } from '../../src/messages/message-codec';
import { apiVersionsAnswer, closedPort, type FakeBroker, startFakeBroker } from './helpers';

const METADATA_ALL = {
  topics: null,
  allowAutoTopicCreation: false,
  includeClusterAuthorizedOperations: false,
  includeTopicAuthorizedOperations: false,
};
const EMPTY_METADATA = {
  throttleTimeMs: 0,
  brokers: [],
  clusterId: null,
  controllerId: -1,
  topics: [],
  clusterAuthorizedOperations: -2147483648,
};

/** Serves ApiVersions (v0–3 with Metadata 1–6) and hands every other request to `other`. */
function metadataOnlyBroker(other: Parameters<typeof startFakeBroker>[0] = () => {}): Promise<FakeBroker> {
  return startFakeBroker((request) => {
    if (request.header.apiKey === ApiVersions.apiKey) {
      request.reply(
        apiVersionsAnswer(request.header.correlationId, request.header.apiVersion, { 18: [0, 3], 3: [1, 6] }),
      );
    } else {
      other(request);
    }
  });
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('Connection against fake brokers', () => {
  let fake: FakeBroker | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('steps ApiVersions down when the broker answers a v0-shaped UNSUPPORTED_VERSION', async () => {
    fake = await startFakeBroker((request) => {
      const { correlationId, apiVersion } = request.header;
      if (apiVersion > 1) {
        // What a broker that cannot parse the version sends: a v0 body, whatever was asked.
        request.reply(
          encodeResponseFrame(ApiVersions, 0, correlationId, {
            errorCode: ErrorCode.UNSUPPORTED_VERSION,
            apiKeys: [{ apiKey: 18, minVersion: 0, maxVersion: 1 }],
            throttleTimeMs: 0,
          }),
        );
      } else {
        request.reply(apiVersionsAnswer(correlationId, apiVersion, { 18: [0, 1], 3: [0, 4] }));
      }
    });
    const connection = new Connection({ host: '127.0.0.1', port: fake.port });
    await connection.ready();
    expect(fake.requests.map((request) => request.header.apiVersion)).toEqual([3, 1]);
    expect(connection.versionFor(Metadata)).toBe(4);
    connection.close();
  });

  it('steps down one version at a time when the broker does not say what it serves', async () => {
    fake = await startFakeBroker((request) => {
      const { correlationId, apiVersion } = request.header;
      if (apiVersion > 0) {
        request.reply(
          encodeResponseFrame(ApiVersions, 0, correlationId, {
            errorCode: ErrorCode.UNSUPPORTED_VERSION,
            apiKeys: [],
            throttleTimeMs: 0,
          }),
        );
      } else {
        request.reply(apiVersionsAnswer(correlationId, 0, { 18: [0, 0], 3: [1, 6] }));
      }
    });
    const connection = new Connection({ host: '127.0.0.1', port: fake.port });
    await connection.ready();
    expect(fake.requests.map((request) => request.header.apiVersion)).toEqual([3, 2, 1, 0]);
    connection.close();
  });

  it('refuses an API the broker does not serve, with UNSUPPORTED_VERSION and without sending it', async () => {
    fake = await metadataOnlyBroker();
    const connection = new Connection({ host: '127.0.0.1', port: fake.port });
    const body = { transactionalId: null, acks: 1, timeoutMs: 1000, topicData: [] };
    const error = await rejection(connection.send(Produce, body));
    expect(error).toBeInstanceOf(WeirError);
    expect((error as WeirError).code).toBe(ErrorCode.UNSUPPORTED_VERSION);
    expect((error as WeirError).message).toContain('Produce');
    expect(connection.supports(Produce)).toBe(false);
    expect(connection.supports(Metadata)).toBe(true);
    expect(fake.requests.map((request) => request.header.apiKey)).toEqual([ApiVersions.apiKey]);
    connection.close();
  });

  it('times out ApiVersions on a server that accepts but never answers', async () => {
    fake = await startFakeBroker(() => {});
    const connection = new Connection({ host: '127.0.0.1', port: fake.port, requestTimeoutMs: 100 });
    const error = await rejection(connection.ready());
    expect((error as WeirError).code).toBe(ErrorCode.REQUEST_TIMED_OUT);
    expect(connection.status).toMatchObject({ state: 'closed', reason: 'request-timed-out' });
  });

  it('fails a request past its deadline with REQUEST_TIMED_OUT, closes, and fails the others', async () => {
    fake = await metadataOnlyBroker();
    const connection = new Connection({ host: '127.0.0.1', port: fake.port });
    const statuses: ConnectionStatus['state'][] = [];
    connection.onStatusChange((status) => statuses.push(status.state));
    await connection.ready();
    const late = rejection(connection.send(Metadata, METADATA_ALL, { timeoutMs: 60_000 }));
    const first = rejection(connection.send(Metadata, METADATA_ALL, { timeoutMs: 100 }));
    expect(((await first) as WeirError).code).toBe(ErrorCode.REQUEST_TIMED_OUT);
    expect(((await late) as WeirError).code).toBe(ErrorCode.NETWORK_EXCEPTION);
    expect(connection.status).toMatchObject({ state: 'closed', reason: 'request-timed-out' });
    expect(statuses).toEqual(['ready', 'closed']);
    expect(connection.inFlightCount).toBe(0);
    await connection.socketClosed();
  });

  it('matches pipelined responses in order and closes on an out-of-order correlation id', async () => {
    const held: { correlationId: number; reply: (frame: Buffer) => void }[] = [];
    fake = await metadataOnlyBroker((request) => {
      held.push({ correlationId: request.header.correlationId, reply: request.reply });
      if (held.length === 3) {
        // Answer the first in order, then the third before the second.
        const answer = (entry: (typeof held)[number]) =>
          entry.reply(encodeResponseFrame(Metadata, 6, entry.correlationId, EMPTY_METADATA));
        answer(held[0]!);
        answer(held[2]!);
      }
    });
    const connection = new Connection({ host: '127.0.0.1', port: fake.port });
    const results = await Promise.allSettled([1, 2, 3].map(() => connection.send(Metadata, METADATA_ALL)));
    expect(results[0]!.status).toBe('fulfilled');
    for (const result of results.slice(1)) {
      expect(result.status).toBe('rejected');
      expect(((result as PromiseRejectedResult).reason as WeirError).code).toBe(
        ErrorCode.UNKNOWN_SERVER_ERROR,
      );
    }
    expect(connection.status).toMatchObject({ state: 'closed', reason: 'protocol-error' });
  });

  it('closes on a response frame larger than maxFrameBytes', async () => {
    fake = await metadataOnlyBroker((request) => {
      const prefix = Buffer.alloc(8);
      prefix.writeInt32BE(10 * 1024 * 1024, 0);
      prefix.writeInt32BE(request.header.correlationId, 4);
      request.reply(prefix);
    });
    const connection = new Connection({ host: '127.0.0.1', port: fake.port, maxFrameBytes: 4096 });
    const error = (await rejection(connection.send(Metadata, METADATA_ALL))) as WeirError;
    expect(error.code).toBe(ErrorCode.UNKNOWN_SERVER_ERROR);
    expect(error.message).toContain('exceeds the maximum');
    expect(connection.status).toMatchObject({ state: 'closed', reason: 'protocol-error' });
  });

  it('closes idempotently and fails requests in flight with NETWORK_EXCEPTION', async () => {
    fake = await metadataOnlyBroker();
    const connection = new Connection({ host: '127.0.0.1', port: fake.port });
    await connection.ready();
    const pending = rejection(connection.send(Metadata, METADATA_ALL));
    connection.close();
    connection.close();
    const error = (await pending) as WeirError;
    expect(error.code).toBe(ErrorCode.NETWORK_EXCEPTION);
    expect(error.message).toContain('closed by the client');
    expect(connection.status).toEqual({ state: 'closed', reason: 'closed-by-client', error: undefined });
    const after = (await rejection(connection.send(Metadata, METADATA_ALL))) as WeirError;
    expect(after.code).toBe(ErrorCode.NETWORK_EXCEPTION);
    await connection.socketClosed();
  });

  it('reports a refused connection as NETWORK_EXCEPTION naming the address', async () => {
    const port = await closedPort();
    const connection = new Connection({ host: '127.0.0.1', port });
    const error = (await rejection(connection.ready())) as WeirError;
    expect(error.code).toBe(ErrorCode.NETWORK_EXCEPTION);
    expect(error.message).toContain(`127.0.0.1:${port}`);
    expect(connection.status).toMatchObject({ state: 'closed', reason: 'connect-failed' });
  });

  it('fails requests when the broker closes the socket', async () => {
    fake = await metadataOnlyBroker((request) => request.socket.destroy());
    const connection = new Connection({ host: '127.0.0.1', port: fake.port });
    const error = (await rejection(connection.send(Metadata, METADATA_ALL))) as WeirError;
    expect(error.code).toBe(ErrorCode.NETWORK_EXCEPTION);
    expect(connection.status).toMatchObject({ state: 'closed', reason: 'peer-closed' });
  });
});

describe('Connection against the broker', () => {
  let broker: RunningBroker;
  beforeAll(async () => {
    broker = await startBroker();
  });
  afterAll(async () => {
    await broker.dispose();
  });

  it('negotiates min(our max, broker max) for each API', async () => {
    const connection = new Connection({ host: '127.0.0.1', port: broker.port });
    await connection.ready();
    expect(connection.status.state).toBe('ready');
    expect(connection.versionFor(ApiVersions)).toBe(3);
    expect(connection.versionFor(Metadata)).toBe(12);
    expect(connection.versionFor(Produce)).toBe(8);
    expect(connection.versionFor(Fetch)).toBe(11);
    connection.close();
  });

  it('answers many pipelined requests in order', async () => {
    const connection = new Connection({ host: '127.0.0.1', port: broker.port });
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => connection.send(Metadata, METADATA_ALL)),
    );
    expect(answers.every((answer) => answer.brokers[0]?.port === broker.port)).toBe(true);
    connection.close();
  });

  it('refuses Produce with acks=0 on send, which would never be answered', async () => {
    const connection = new Connection({ host: '127.0.0.1', port: broker.port });
    const body = { transactionalId: null, acks: 0, timeoutMs: 1000, topicData: [] };
    await expect(connection.send(Produce, body)).rejects.toThrow(RangeError);
    connection.close();
  });
});
