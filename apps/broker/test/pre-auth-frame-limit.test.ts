import { CreateTopics, ErrorCode, SaslAuthenticate, SaslHandshake, saslClientExchange } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTopicsBody } from './raw-request-bodies';
import { fetchValues, produceValues, RawConnection } from './raw-socket';
import { ADMIN, saslBrokerConfig } from './sasl-fixtures';

const LIMIT_BYTES = 524_288;
const MIB = 1024 * 1024;

/** A size prefix announcing `bodyBytes`, followed by `sentBytes` of the body. */
function announcedFrame(bodyBytes: number, sentBytes: number): Buffer {
  const frame = Buffer.alloc(4 + sentBytes, 0x41);
  frame.writeInt32BE(bodyBytes, 0);
  return frame;
}

/** Opens a raw connection that has authenticated with SASL PLAIN as the bootstrap admin. */
async function authenticatedConnection(port: number): Promise<RawConnection> {
  const connection = await RawConnection.open(port);
  const handshake = await connection.request(SaslHandshake, 1, { mechanism: 'PLAIN' });
  expect(handshake.errorCode).toBe(ErrorCode.NONE);
  const authBytes = saslClientExchange({ mechanism: 'PLAIN', ...ADMIN }).initialBytes();
  const answer = await connection.request(SaslAuthenticate, 1, { authBytes });
  expect(answer.errorCode).toBe(ErrorCode.NONE);
  return connection;
}

async function refusedFrames(running: RunningBroker, reason: string): Promise<number> {
  const { values } = await running.metrics.connectionsRejectedTotal.get();
  return values.find((value) => value.labels.reason === reason)?.value ?? 0;
}

/** Values of about `bytes` in all, in one batch: a Produce frame of that size. */
function largeValues(bytes: number): string[] {
  return Array.from({ length: 16 }, (_, index) => `${index}:`.padEnd(Math.floor(bytes / 16), 'v'));
}

describe('frames before SASL authentication (sasl.server.max.receive.size)', { timeout: 60_000 }, () => {
  let running: RunningBroker;

  beforeAll(async () => {
    running = await startBroker(saslBrokerConfig());
  });
  afterAll(async () => {
    await running?.dispose();
  });

  it('closes a connection announcing 1 MiB on its size prefix, before the body is sent', async () => {
    const connection = await RawConnection.open(running.port);
    // Only the prefix and a few bytes: a broker waiting for the body would never close.
    await connection.write(announcedFrame(MIB, 16));
    await connection.closed();
    expect(await refusedFrames(running, 'frame_too_large_before_authentication')).toBe(1);
    expect(running.broker.heldRequestBytes.bytes).toBe(0);
    expect(running.broker.heldRequestBytes.peakBytes).toBeLessThan(1024);
  });

  it('holds no body of 8 unauthenticated connections announcing 60 MiB each', async () => {
    const connections = await Promise.all(Array.from({ length: 8 }, () => RawConnection.open(running.port)));
    for (const connection of connections) {
      // The broker may close before the megabyte is written; the write then fails, as it should.
      connection.write(announcedFrame(60 * MIB, MIB)).catch(() => undefined);
    }
    await Promise.all(connections.map((connection) => connection.closed()));
    expect(await refusedFrames(running, 'frame_too_large_before_authentication')).toBe(9);
    // Of 8 MiB of bodies sent, what the decoders held at most: far below one limit's worth.
    expect(running.broker.heldRequestBytes.peakBytes).toBeLessThan(LIMIT_BYTES);
    expect(running.broker.heldRequestBytes.bytes).toBe(0);
  });

  it('accepts a frame just under the limit before authentication (and answers it by closing)', async () => {
    const connection = await RawConnection.open(running.port);
    // Within the limit the body is read: a garbage request of that size is a bad request, not a
    // refused size, so the counter of refused sizes does not move.
    await connection.write(announcedFrame(LIMIT_BYTES, LIMIT_BYTES));
    await connection.closed();
    expect(await refusedFrames(running, 'frame_too_large_before_authentication')).toBe(9);
  });

  it('lets an authenticated connection send Produce frames larger than the limit', async () => {
    const connection = await authenticatedConnection(running.port);
    const created = await connection.request(
      CreateTopics,
      4,
      createTopicsBody([{ name: 'large', partitions: 1 }]),
    );
    expect(created.topics[0]!.errorCode).toBe(ErrorCode.NONE);
    const values = largeValues(900 * 1024);
    expect((await produceValues(connection, 'large', 0, values)).errorCode).toBe(ErrorCode.NONE);
    expect((await fetchValues(connection, 'large', 0)).values).toEqual(values);
    await connection.destroy();
    expect(running.broker.heldRequestBytes.peakBytes).toBeGreaterThan(LIMIT_BYTES);
  });
});

describe('frames on a listener without SASL', { timeout: 30_000 }, () => {
  it('keeps the listener limit from the first request', async () => {
    const running = await startBroker({});
    try {
      const connection = await RawConnection.open(running.port);
      const created = await connection.request(
        CreateTopics,
        4,
        createTopicsBody([{ name: 'plain-large', partitions: 1 }]),
      );
      expect(created.topics[0]!.errorCode).toBe(ErrorCode.NONE);
      const values = largeValues(900 * 1024);
      expect((await produceValues(connection, 'plain-large', 0, values)).errorCode).toBe(ErrorCode.NONE);
      await connection.destroy();
    } finally {
      await running.dispose();
    }
  });
});
