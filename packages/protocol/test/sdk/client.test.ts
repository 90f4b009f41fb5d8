import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Admin } from '../../src/client/admin';
import { parseBrokerAddress } from '../../src/client/broker-address';
import { Client } from '../../src/client/client';
import { ClosedError } from '../../src/client/closed-error';
import { ErrorCode } from '../../src/errors/error-codes';
import { WeirError } from '../../src/errors/weir-error';
import { Metadata } from '../../src/messages/apis/metadata';
import { closedPort, recordingTransport } from './helpers';

let broker: RunningBroker;
beforeAll(async () => {
  broker = await startBroker({ topics: { autoCreateEnable: false } });
  const setup = new Client({ bootstrapServers: [broker.bootstrap] });
  await new Admin(setup).createTopics([{ name: 'cached', partitions: 2 }]);
  await setup.close();
});
afterAll(async () => {
  await broker.dispose();
});

describe('Client', () => {
  it('gives up on an unreachable bootstrap server within the retry bounds, with an error naming it', async () => {
    const port = await closedPort();
    const client = new Client({
      bootstrapServers: [`127.0.0.1:${port}`],
      retry: { maxAttempts: 100, initialBackoffMs: 20, maxBackoffMs: 100, maxTotalMs: 1000 },
    });
    const startedMs = Date.now();
    const error = (await client.connect().catch((caught: unknown) => caught)) as WeirError;
    const elapsedMs = Date.now() - startedMs;
    expect(error).toBeInstanceOf(WeirError);
    expect(error.code).toBe(ErrorCode.NETWORK_EXCEPTION);
    expect(error.message).toContain(`127.0.0.1:${port}`);
    expect(error.message).toMatch(/gave up after \d+ attempts/);
    // No new attempt starts after maxTotalMs; a refused connect fails at once.
    expect(elapsedMs).toBeLessThan(2000);
    await client.close();
  });

  it('walks the bootstrap list past a dead server', async () => {
    const port = await closedPort();
    const client = new Client({
      bootstrapServers: [`127.0.0.1:${port}`, broker.bootstrap],
      retry: { initialBackoffMs: 10 },
    });
    const cluster = await client.connect();
    expect(cluster.brokers).toEqual([{ nodeId: 0, host: '127.0.0.1', port: broker.port, rack: null }]);
    expect(cluster.controllerId).toBe(0);
    await client.close();
  });

  it('serves topic metadata from its cache until it is stale or invalidated', async () => {
    let metadataRequests = 0;
    const client = new Client({
      bootstrapServers: [broker.bootstrap],
      transport: recordingTransport((apiKey) => {
        if (apiKey === Metadata.apiKey) metadataRequests++;
      }),
    });
    const topic = await client.topic('cached');
    expect(topic.partitions.map((partition) => partition.partition)).toEqual([0, 1]);
    expect(topic.partitions[0]!.leaderId).toBe(0);
    await client.topic('cached');
    await client.topic('cached');
    expect(metadataRequests).toBe(1);
    client.invalidateMetadata('cached');
    await client.topic('cached');
    expect(metadataRequests).toBe(2);
    await Promise.all([client.topic('cached', { refresh: true }), client.topic('cached', { refresh: true })]);
    // Two concurrent refreshes of the same topic share one request.
    expect(metadataRequests).toBe(3);
    await client.close();
  });

  it('fails a lookup of a missing topic with UNKNOWN_TOPIC_OR_PARTITION once retries run out', async () => {
    const client = new Client({
      bootstrapServers: [broker.bootstrap],
      retry: { maxAttempts: 3, initialBackoffMs: 10 },
    });
    await expect(client.topic('no-such-topic')).rejects.toMatchObject({
      code: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    });
    await client.close();
  });

  it('refuses malformed bootstrap servers', () => {
    expect(() => new Client({ bootstrapServers: [] })).toThrow(RangeError);
    expect(() => new Client({ bootstrapServers: ['localhost'] })).toThrow(/host:port/);
    expect(() => new Client({ bootstrapServers: ['localhost:0'] })).toThrow(RangeError);
    expect(parseBrokerAddress('[::1]:9092')).toEqual({ host: '::1', port: 9092 });
  });

  it('stops retrying when closed, and refuses work afterwards', async () => {
    const port = await closedPort();
    const client = new Client({
      bootstrapServers: [`127.0.0.1:${port}`],
      retry: { maxAttempts: 1000, initialBackoffMs: 50, maxBackoffMs: 50, maxTotalMs: 600_000 },
    });
    const connecting = client.connect().catch((caught: unknown) => caught);
    await client.close();
    expect(await connecting).toBeInstanceOf(ClosedError);
    await expect(client.topic('cached')).rejects.toBeInstanceOf(ClosedError);
    await client.close();
  });
});
