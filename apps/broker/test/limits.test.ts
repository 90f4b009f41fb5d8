import {
  ApiVersions,
  CreateTopics,
  encodeRequestFrame,
  Fetch,
  Metadata,
  Produce,
  ZERO_UUID,
} from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiVersionsBody, createTopicsBody } from './raw-request-bodies';
import {
  batchOf,
  fetchBody,
  fetchedPartition,
  fetchValues,
  produceBody,
  produceValues,
  RawConnection,
  within,
} from './raw-socket';

async function createTopics(broker: RunningBroker, names: string[]): Promise<void> {
  const connection = await RawConnection.open(broker.port);
  const response = await connection.request(
    CreateTopics,
    4,
    createTopicsBody(names.map((name) => ({ name, partitions: 1 }))),
  );
  expect(response.topics.map((topic) => topic.errorCode)).toEqual(names.map(() => 0));
  await connection.destroy();
}

/** A connection answers a request: the quickest proof it is being served. */
async function expectServed(connection: RawConnection): Promise<void> {
  expect((await connection.request(ApiVersions, 2, apiVersionsBody())).errorCode).toBe(0);
}

describe('maxConnections', { timeout: 30_000 }, () => {
  let broker: RunningBroker;

  beforeAll(async () => {
    broker = await startBroker({
      limits: { maxConnections: 3 },
      topics: { autoCreateEnable: false },
      shutdownTimeoutMs: 2_000,
    });
    await createTopics(broker, ['kept']);
    const setup = await RawConnection.open(broker.port);
    expect((await produceValues(setup, 'kept', 0, ['k-0', 'k-1', 'k-2'])).errorCode).toBe(0);
    // Closed by the broker (a zero-length frame is refused), so its slot is free once this returns.
    await setup.write(Buffer.alloc(4));
    await setup.closed();
  });
  afterAll(async () => {
    await broker?.dispose();
  });

  it('closes the 4th connection at once while the first 3 keep working', async () => {
    const open = [
      await RawConnection.open(broker.port),
      await RawConnection.open(broker.port),
      await RawConnection.open(broker.port),
    ];
    for (const connection of open) await expectServed(connection);

    const extra = await RawConnection.open(broker.port);
    await extra.closed();
    // A burst of refused connections changes nothing for the admitted ones.
    const burst = await Promise.all(Array.from({ length: 10 }, () => RawConnection.open(broker.port)));
    await Promise.all(burst.map((connection) => connection.closed()));

    for (const connection of open) await expectServed(connection);
    expect((await fetchValues(open[0]!, 'kept', 0)).values).toEqual(['k-0', 'k-1', 'k-2']);

    // The broker frees a slot when it closes a connection itself (here: bad input), so the slot is
    // free by the time the client sees the close, and a new connection is admitted.
    await open[2]!.write(Buffer.alloc(4));
    await open[2]!.closed();
    const replacement = await RawConnection.open(broker.port);
    await expectServed(replacement);
    expect((await fetchValues(replacement, 'kept', 0)).values).toEqual(['k-0', 'k-1', 'k-2']);

    await Promise.all([open[0]!.destroy(), open[1]!.destroy(), replacement.destroy()]);
  });
});

describe('idleTimeoutMs', { timeout: 30_000 }, () => {
  const IDLE_MS = 200;
  let broker: RunningBroker;

  beforeAll(async () => {
    broker = await startBroker({
      limits: { idleTimeoutMs: IDLE_MS },
      topics: { autoCreateEnable: false },
      shutdownTimeoutMs: 2_000,
    });
    await createTopics(broker, ['quiet']);
  });
  afterAll(async () => {
    await broker?.dispose();
  });

  it('closes a connection that never sends anything', async () => {
    const idle = await RawConnection.open(broker.port);
    await idle.closed();
  });

  it('closes a connection that went quiet after being answered', async () => {
    const connection = await RawConnection.open(broker.port);
    await expectServed(connection);
    await connection.closed();
  });

  it('closes a connection stalled in the middle of a frame', async () => {
    const connection = await RawConnection.open(broker.port);
    const frame = encodeRequestFrame(ApiVersions, 2, 1, 'stalled', apiVersionsBody());
    await connection.write(frame.subarray(0, frame.length - 3));
    await connection.closed();
  });

  it('keeps a connection that keeps sending, while an idle one next to it is closed', async () => {
    const idle = await RawConnection.open(broker.port);
    const busy = await RawConnection.open(broker.port);
    const idleClosed = idle.closed();
    // Requests paced at a quarter of the timeout for three timeouts: the pacing is the workload here,
    // not a wait for an event.
    const started = Date.now();
    let answered = 0;
    while (Date.now() - started < 3 * IDLE_MS) {
      await expectServed(busy);
      answered++;
      await new Promise<void>((resolve) => setTimeout(resolve, IDLE_MS / 4));
    }
    await idleClosed;
    expect(busy.isClosed).toBe(false);
    expect(answered).toBeGreaterThanOrEqual(4);
    await expectServed(busy);
    // Once it stops sending, it is closed as well.
    await busy.closed();
  });

  it('does not close a connection while its long-poll outlasts the idle timeout', async () => {
    const connection = await RawConnection.open(broker.port);
    const maxWaitMs = 4 * IDLE_MS;
    const response = await connection.request(
      Fetch,
      11,
      fetchBody('quiet', 0, 0n, { maxWaitMs, minBytes: 1 }),
      maxWaitMs + 5_000,
    );
    expect(fetchedPartition(response)).toMatchObject({ errorCode: 0, values: [] });
    expect(connection.isClosed).toBe(false);
    await expectServed(connection);
    await connection.closed();
  });
});

describe('maxInFlightRequestsPerConnection', { timeout: 30_000 }, () => {
  const MAX_IN_FLIGHT = 4;
  let broker: RunningBroker;

  beforeAll(async () => {
    broker = await startBroker({
      limits: { maxInFlightRequestsPerConnection: MAX_IN_FLIGHT },
      topics: { autoCreateEnable: false },
      shutdownTimeoutMs: 2_000,
    });
    await createTopics(broker, ['ordered', 'bulk', 'wake']);
  });
  afterAll(async () => {
    await broker?.dispose();
  });

  it('answers 50 pipelined requests in order', async () => {
    const connection = await RawConnection.open(broker.port);
    const frames = Array.from({ length: 50 }, (_, index) =>
      index % 3 === 0
        ? {
            api: 'produce' as const,
            frame: connection.frame(
              Produce,
              7,
              produceBody(1, [
                { topic: 'ordered', partitions: [{ partition: 0, records: batchOf([`o-${index}`]) }] },
              ]),
            ),
          }
        : index % 3 === 1
          ? { api: 'versions' as const, frame: connection.frame(ApiVersions, 3, apiVersionsBody()) }
          : {
              api: 'metadata' as const,
              frame: connection.frame(Metadata, 6, {
                topics: [{ topicId: ZERO_UUID, name: 'ordered' }],
                allowAutoTopicCreation: false,
                includeClusterAuthorizedOperations: false,
                includeTopicAuthorizedOperations: false,
              }),
            },
    );
    await connection.write(Buffer.concat(frames.map(({ frame }) => frame.bytes)));
    const offsets: bigint[] = [];
    for (const { api, frame } of frames) {
      if (api === 'produce') {
        const response = await connection.receive(Produce, 7, frame.correlationId);
        expect(response.responses[0]!.partitionResponses[0]!.errorCode).toBe(0);
        offsets.push(response.responses[0]!.partitionResponses[0]!.baseOffset);
      } else if (api === 'versions') {
        expect((await connection.receive(ApiVersions, 3, frame.correlationId)).errorCode).toBe(0);
      } else {
        expect((await connection.receive(Metadata, 6, frame.correlationId)).topics[0]!.errorCode).toBe(0);
      }
    }
    expect(offsets).toEqual(offsets.map((_, index) => BigInt(index)));
    const produced = frames.flatMap(({ api }, index) => (api === 'produce' ? [`o-${index}`] : []));
    expect((await fetchValues(connection, 'ordered', 0)).values).toEqual(produced);
    await connection.destroy();
  });

  it('stops reading while the queue is full and resumes as answers go out', async () => {
    const connection = await RawConnection.open(broker.port);
    const waker = await RawConnection.open(broker.port);
    // First request: a long-poll that holds the queue until another connection produces.
    const parked = connection.frame(Fetch, 11, fetchBody('wake', 0, 0n, { maxWaitMs: 30_000, minBytes: 1 }));
    // Behind it, far more bytes than the socket buffers on both sides hold (~40 MB).
    const value = 'x'.repeat(1_000_000);
    const produces = Array.from({ length: 40 }, (_, index) =>
      connection.frame(
        Produce,
        7,
        produceBody(1, [
          { topic: 'bulk', partitions: [{ partition: 0, records: batchOf([`${index}:${value}`]) }] },
        ]),
      ),
    );
    const written = connection.write(Buffer.concat([parked.bytes, ...produces.map((frame) => frame.bytes)]));
    // While the fetch is parked the broker holds at most MAX_IN_FLIGHT frames and reads no further,
    // so the client cannot finish writing. A broker that kept reading would take all 40 MB in well
    // under this bound on loopback.
    await expect(within(written, 1_000, 'the write to drain')).rejects.toThrow(/timed out/);
    expect(connection.isClosed).toBe(false);

    expect((await produceValues(waker, 'wake', 0, ['go'])).errorCode).toBe(0);
    const woken = fetchedPartition(await connection.receive(Fetch, 11, parked.correlationId, 10_000));
    expect(woken.values).toEqual(['go']);
    const offsets: bigint[] = [];
    for (const frame of produces) {
      const response = await connection.receive(Produce, 7, frame.correlationId, 30_000);
      const partition = response.responses[0]!.partitionResponses[0]!;
      expect(partition.errorCode).toBe(0);
      offsets.push(partition.baseOffset);
    }
    expect(offsets).toEqual(produces.map((_, index) => BigInt(index)));
    await within(written, 10_000, 'the write to drain');
    await Promise.all([connection.destroy(), waker.destroy()]);
  });
});
