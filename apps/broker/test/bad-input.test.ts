import {
  ALL_APIS,
  ApiVersions,
  BatchLayout,
  CreateTopics,
  DeleteRecords,
  ErrorCode,
  encodeLegacyMessageSet,
  encodeRequestFrame,
  encodeTransactionMarkerBatch,
  Fetch,
  Metadata,
  Produce,
  type RequestOf,
  ZERO_UUID,
} from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientListenerHandlers } from '../src/server/api-table';
import { HandlerRegistry } from '../src/server/handler-registry';
import { kcat } from './kcat-clients';
import { apiVersionsBody, createTopicsBody } from './raw-request-bodies';
import {
  batchOf,
  fetchBody,
  fetchedPartition,
  fetchValues,
  produceBody,
  produceValues,
  RawConnection,
  rawFrame,
  rawRequestHeader,
} from './raw-socket';

const MAX_FRAME_BYTES = 64 * 1024;
/** Short, so a test that fails with a long-poll still parked does not hold up the broker's stop. */
const SHUTDOWN_TIMEOUT_MS = 2_000;
/** Written before any bad input; every test checks they are still there, unchanged. */
const KEPT_VALUES = ['kept-0', 'kept-1', 'kept-2'];

function int32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeInt32BE(value, 0);
  return bytes;
}

function int16(value: number): Buffer {
  const bytes = Buffer.alloc(2);
  bytes.writeInt16BE(value, 0);
  return bytes;
}

function kafkaString(value: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  return Buffer.concat([int16(bytes.length), bytes]);
}

function metadataBody(topics: string[] | null, allowAutoTopicCreation: boolean): RequestOf<typeof Metadata> {
  return {
    topics: topics === null ? null : topics.map((name) => ({ topicId: ZERO_UUID, name })),
    allowAutoTopicCreation,
    includeClusterAuthorizedOperations: false,
    includeTopicAuthorizedOperations: false,
  };
}

/** A copy of a batch with one byte of its records changed, so the CRC no longer matches. */
function withBadCrc(batch: Buffer): Buffer {
  const corrupt = Buffer.from(batch);
  corrupt[corrupt.length - 1]! ^= 0xff;
  return corrupt;
}

/** A copy of a batch whose batchLength field says `length` (the bytes themselves are unchanged). */
function withBatchLength(batch: Buffer, length: number): Buffer {
  const lying = Buffer.from(batch);
  lying.writeInt32BE(length, BatchLayout.batchLength);
  return lying;
}

/** An API the codec can decode but the broker does not serve (yet), if there is one. */
const unservedApi = ALL_APIS.find(
  (api) => new HandlerRegistry(clientListenerHandlers(false)).get(api.apiKey) === undefined,
);

describe('bad input never crashes the broker and never loses data', { timeout: 30_000 }, () => {
  let broker: RunningBroker;
  /** Open for the whole file: every case also checks that an unrelated connection keeps working. */
  let bystander: RawConnection;

  beforeAll(async () => {
    broker = await startBroker({
      topics: { autoCreateEnable: false },
      limits: { maxFrameBytes: MAX_FRAME_BYTES },
      shutdownTimeoutMs: SHUTDOWN_TIMEOUT_MS,
    });
    const setup = await RawConnection.open(broker.port);
    const created = await setup.request(
      CreateTopics,
      4,
      createTopicsBody([
        { name: 'kept', partitions: 1 },
        { name: 'two', partitions: 2 },
        { name: 'small', partitions: 1, configs: { 'max.message.bytes': '1024' } },
        { name: 'pipelined', partitions: 1 },
        { name: 'quiet', partitions: 1 },
        { name: 'trimmed', partitions: 1 },
        { name: 'waiting', partitions: 1 },
        { name: 'min-bytes', partitions: 1 },
        { name: 'exact', partitions: 1 },
      ]),
    );
    expect(created.topics.map((topic) => topic.errorCode)).toEqual(created.topics.map(() => 0));
    expect(await produceValues(setup, 'kept', 0, KEPT_VALUES)).toEqual({ errorCode: 0, baseOffset: 0n });
    await setup.destroy();
    bystander = await RawConnection.open(broker.port);
  });

  afterAll(async () => {
    await bystander?.destroy();
    await broker?.dispose();
  });

  /** A fresh connection is served, the bystander is served, and the records written first are intact. */
  async function expectServingAndIntact(): Promise<void> {
    const fresh = await RawConnection.open(broker.port);
    try {
      expect((await fresh.request(ApiVersions, 2, apiVersionsBody())).errorCode).toBe(0);
      const kept = await fetchValues(fresh, 'kept', 0);
      expect(kept).toMatchObject({
        errorCode: 0,
        highWatermark: 3n,
        logStartOffset: 0n,
        values: KEPT_VALUES,
      });
    } finally {
      await fresh.destroy();
    }
    expect(bystander.isClosed).toBe(false);
    expect((await fetchValues(bystander, 'kept', 0)).values).toEqual(KEPT_VALUES);
  }

  /** Sends `bytes` on a new connection and expects the broker to close it. */
  async function expectClosedAfter(bytes: Buffer | Buffer[]): Promise<void> {
    const connection = await RawConnection.open(broker.port);
    for (const chunk of Array.isArray(bytes) ? bytes : [bytes]) await connection.write(chunk);
    await connection.closed();
    await expectServingAndIntact();
  }

  describe('framing', () => {
    it.each([
      ['an HTTP request', Buffer.from('GET / HTTP/1.1\r\nHost: localhost\r\n\r\n')],
      ['a TLS ClientHello', Buffer.from('16030100a5010000a10303', 'hex')],
      ['0xff bytes', Buffer.alloc(64, 0xff)],
      ['a small frame of garbage', Buffer.concat([int32(24), Buffer.alloc(24, 0xab)])],
    ])('closes the connection on %s', async (_label, garbage) => {
      await expectClosedAfter(garbage);
    });

    it('closes the connection when the stream ends inside a frame', async () => {
      const connection = await RawConnection.open(broker.port);
      await connection.write(Buffer.concat([int32(100), Buffer.alloc(10, 1)]));
      connection.end();
      await connection.closed();
      await expectServingAndIntact();
    });

    it('closes on a size prefix above maxFrameBytes as soon as the prefix arrives', async () => {
      // Only the 4-byte prefix is sent: a broker that waited to buffer the body would never close.
      await expectClosedAfter(int32(MAX_FRAME_BYTES + 1));
      await expectClosedAfter(int32(0x7fffffff));
    });

    it('answers the requests before an oversized prefix, then closes', async () => {
      const connection = await RawConnection.open(broker.port);
      const first = connection.frame(ApiVersions, 2, apiVersionsBody());
      const second = connection.frame(Metadata, 1, metadataBody(['kept'], false));
      await connection.write(Buffer.concat([first.bytes, second.bytes, int32(MAX_FRAME_BYTES + 1)]));
      expect((await connection.receive(ApiVersions, 2, first.correlationId)).errorCode).toBe(0);
      const metadata = await connection.receive(Metadata, 1, second.correlationId);
      expect(metadata.topics.map((topic) => [topic.name, topic.errorCode])).toEqual([['kept', 0]]);
      await connection.closed();
      await expectServingAndIntact();
    });

    it('serves a frame of exactly maxFrameBytes', async () => {
      // Grow one record's value until the whole Produce frame body is exactly the limit.
      let valueBytes = MAX_FRAME_BYTES - 200;
      let frame: Buffer;
      for (;;) {
        const body = produceBody(1, [
          { topic: 'exact', partitions: [{ partition: 0, records: batchOf(['v'.repeat(valueBytes)]) }] },
        ]);
        frame = encodeRequestFrame(Produce, 7, 5, 'exact', body);
        const missing = MAX_FRAME_BYTES + 4 - frame.length;
        if (missing === 0) break;
        valueBytes += missing;
      }
      const connection = await RawConnection.open(broker.port);
      await connection.write(frame);
      const response = await connection.receive(Produce, 7, 5);
      expect(response.responses[0]!.partitionResponses[0]!.errorCode).toBe(0);
      await connection.destroy();
      await expectServingAndIntact();
    });

    it.each([-1, -2, -(2 ** 31)])('closes the connection on the negative size prefix %i', async (size) => {
      await expectClosedAfter(Buffer.concat([int32(size), Buffer.alloc(16)]));
    });

    it('closes the connection on a zero-length frame', async () => {
      await expectClosedAfter(int32(0));
    });
  });

  describe('unknown APIs and versions', () => {
    const cases: [label: string, apiKey: number, version: number][] = [
      ['API key 999', 999, 0],
      ['API key -1', -1, 0],
      ['Metadata v12', 3, 12],
      ['Metadata v0', 3, 0],
      ['Produce v2', 0, 2],
      ['Fetch v3', 1, 3],
    ];
    if (unservedApi) {
      cases.push([
        `${unservedApi.name} (the codec knows it, the broker does not serve it)`,
        unservedApi.apiKey,
        unservedApi.versions.min,
      ]);
    }
    it.each(cases)('closes the connection on %s', async (_label, apiKey, version) => {
      const connection = await RawConnection.open(broker.port);
      // A request before it on the same connection is still answered.
      const before = connection.frame(ApiVersions, 1, apiVersionsBody());
      const unknown = rawFrame(Buffer.concat([rawRequestHeader(apiKey, version, 77), int32(0), int32(0)]));
      await connection.write(Buffer.concat([before.bytes, unknown]));
      expect((await connection.receive(ApiVersions, 1, before.correlationId)).errorCode).toBe(0);
      await connection.closed();
      await expectServingAndIntact();
    });
  });

  describe('request bodies that lie', () => {
    it('closes the connection on an array count of 1e9 with a few bytes behind it', async () => {
      // Produce v7: transactional id null, acks 1, timeout, then a topic array "of 1e9 topics".
      const body = Buffer.concat([
        int16(-1),
        int16(1),
        int32(1000),
        int32(1_000_000_000),
        kafkaString('kept'),
      ]);
      await expectClosedAfter(rawFrame(Buffer.concat([rawRequestHeader(0, 7, 1), body])));
    });

    it('closes the connection on a negative array length where null is not allowed', async () => {
      const body = Buffer.concat([int16(-1), int16(1), int32(1000), int32(-1)]);
      await expectClosedAfter(rawFrame(Buffer.concat([rawRequestHeader(0, 7, 1), body])));
      // Metadata's topic list is nullable (-1), but -2 is still not a length.
      await expectClosedAfter(rawFrame(Buffer.concat([rawRequestHeader(3, 1, 1), int32(-2)])));
    });

    it('closes the connection on a string length past the end of the frame', async () => {
      const topicName = Buffer.concat([int16(1000), Buffer.from('abc')]);
      await expectClosedAfter(rawFrame(Buffer.concat([rawRequestHeader(3, 1, 1), int32(1), topicName])));
    });

    it('closes the connection on a client id longer than the frame', async () => {
      const header = Buffer.concat([int16(18), int16(2), int32(1), int16(500), Buffer.from('short')]);
      await expectClosedAfter(rawFrame(header));
    });

    it('closes the connection on a records field whose length runs past the end', async () => {
      const body = Buffer.concat([
        int16(-1),
        int16(1),
        int32(1000),
        int32(1),
        kafkaString('kept'),
        int32(1),
        int32(0),
        int32(1_000_000_000),
        Buffer.alloc(20),
      ]);
      await expectClosedAfter(rawFrame(Buffer.concat([rawRequestHeader(0, 7, 1), body])));
    });
  });

  describe('pipelining', () => {
    it('answers 100 requests written at once in order', async () => {
      const connection = await RawConnection.open(broker.port);
      const requests = Array.from({ length: 100 }, (_, index) =>
        index % 2 === 0
          ? {
              api: ApiVersions,
              version: (index / 2) % 4,
              frame: connection.frame(ApiVersions, (index / 2) % 4, apiVersionsBody()),
            }
          : {
              api: Metadata,
              version: 1 + (index % 6),
              frame: connection.frame(Metadata, 1 + (index % 6), metadataBody(['kept'], false)),
            },
      );
      await connection.write(Buffer.concat(requests.map((request) => request.frame.bytes)));
      const correlationIds: number[] = [];
      for (const request of requests) {
        if (request.api === ApiVersions) {
          const response = await connection.receive(
            ApiVersions,
            request.version,
            request.frame.correlationId,
          );
          expect(response.errorCode).toBe(0);
        } else {
          const response = await connection.receive(Metadata, request.version, request.frame.correlationId);
          expect(response.topics[0]!.name).toBe('kept');
        }
        correlationIds.push(request.frame.correlationId);
      }
      expect(correlationIds).toEqual(Array.from({ length: 100 }, (_, index) => index));
      await connection.destroy();
    });

    it('gives pipelined acks=1 produces their offsets in request order', async () => {
      const connection = await RawConnection.open(broker.port);
      const frames = Array.from({ length: 30 }, (_, index) =>
        connection.frame(
          Produce,
          7,
          produceBody(1, [
            {
              topic: 'pipelined',
              partitions: [{ partition: 0, records: batchOf([`p${index}-a`, `p${index}-b`]) }],
            },
          ]),
        ),
      );
      await connection.write(Buffer.concat(frames.map((frame) => frame.bytes)));
      const offsets: bigint[] = [];
      for (const frame of frames) {
        const response = await connection.receive(Produce, 7, frame.correlationId);
        const partition = response.responses[0]!.partitionResponses[0]!;
        expect(partition.errorCode).toBe(0);
        offsets.push(partition.baseOffset);
      }
      expect(offsets).toEqual(frames.map((_, index) => BigInt(index * 2)));
      const fetched = await fetchValues(connection, 'pipelined', 0);
      expect(fetched.values).toEqual(frames.flatMap((_, index) => [`p${index}-a`, `p${index}-b`]));
      await connection.destroy();
    });
  });

  describe('Produce validation', () => {
    let connection: RawConnection;

    beforeAll(async () => {
      connection = await RawConnection.open(broker.port);
    });
    afterAll(async () => {
      await connection.destroy();
    });

    /** Produces one partition's raw records and returns its error code; the connection stays open. */
    async function produceError(
      topic: string,
      partition: number,
      records: Buffer,
      acks = 1,
    ): Promise<number> {
      const response = await connection.request(
        Produce,
        7,
        produceBody(acks, [{ topic, partitions: [{ partition, records }] }]),
      );
      return response.responses[0]!.partitionResponses[0]!.errorCode;
    }

    async function highWatermark(topic: string, partition: number): Promise<bigint> {
      return (await fetchValues(connection, topic, partition)).highWatermark;
    }

    it('answers CORRUPT_MESSAGE for a bad CRC while another partition of the request succeeds', async () => {
      const before = await highWatermark('two', 0);
      const response = await connection.request(
        Produce,
        7,
        produceBody(1, [
          {
            topic: 'two',
            partitions: [
              { partition: 0, records: withBadCrc(batchOf(['corrupt'])) },
              { partition: 1, records: batchOf(['fine']) },
            ],
          },
        ]),
      );
      const [bad, good] = response.responses[0]!.partitionResponses;
      expect(bad).toMatchObject({ index: 0, errorCode: ErrorCode.CORRUPT_MESSAGE, baseOffset: -1n });
      expect(good).toMatchObject({ index: 1, errorCode: 0 });
      expect(await highWatermark('two', 0)).toBe(before);
      const partitionOne = await fetchValues(connection, 'two', 1, good!.baseOffset);
      expect(partitionOne.values).toEqual(['fine']);
      await expectServingAndIntact();
    });

    it.each([
      ['longer than the bytes sent', (length: number) => length + 10],
      ['shorter than the bytes sent', (length: number) => length - 5],
      ['negative', () => -1],
      ['zero', () => 0],
    ])('answers CORRUPT_MESSAGE for a batchLength %s', async (_label, lie) => {
      const batch = batchOf(['liar-a', 'liar-b']);
      const honest = batch.readInt32BE(BatchLayout.batchLength);
      const before = await highWatermark('kept', 0);
      expect(await produceError('kept', 0, withBatchLength(batch, lie(honest)))).toBe(
        ErrorCode.CORRUPT_MESSAGE,
      );
      expect(await highWatermark('kept', 0)).toBe(before);
      await expectServingAndIntact();
    });

    it.each([
      ['a flipped byte (CRC-32 mismatch)', (set: Buffer) => flipLastByte(set)],
      ['a set cut inside a message', (set: Buffer) => set.subarray(0, set.length - 3)],
      ['a gzip wrapper holding garbage', () => gzipWrapperOf(Buffer.from('not gzip at all'))],
      ['an empty set', () => Buffer.alloc(0, 0)],
    ])('answers CORRUPT_MESSAGE at Produce v2 for a legacy message set with %s', async (_label, damage) => {
      const before = await highWatermark('kept', 0);
      const set = encodeLegacyMessageSet([
        { offset: 0n, magic: 1, timestampMs: 1_700_000_000_000, key: null, value: Buffer.from('legacy') },
      ]);
      const response = await connection.request(
        Produce,
        2,
        produceBody(1, [{ topic: 'kept', partitions: [{ partition: 0, records: damage(set) }] }]),
      );
      expect(response.responses[0]!.partitionResponses[0]!.errorCode).toBe(ErrorCode.CORRUPT_MESSAGE);
      expect(await highWatermark('kept', 0)).toBe(before);
      await expectServingAndIntact();
    });

    it('answers INVALID_RECORD for two batches in one partition', async () => {
      const two = Buffer.concat([batchOf(['first']), batchOf(['second'])]);
      expect(await produceError('kept', 0, two)).toBe(ErrorCode.INVALID_RECORD);
      await expectServingAndIntact();
    });

    it('answers INVALID_REQUIRED_ACKS for acks=2 and writes nothing', async () => {
      const before = await highWatermark('two', 1);
      expect(await produceError('two', 1, batchOf(['acks-2']), 2)).toBe(ErrorCode.INVALID_REQUIRED_ACKS);
      expect(await highWatermark('two', 1)).toBe(before);
      await expectServingAndIntact();
    });

    it('answers UNKNOWN_TOPIC_OR_PARTITION for an unknown topic or partition (auto-create off)', async () => {
      expect(await produceError('no-such-topic', 0, batchOf(['x']))).toBe(
        ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
      );
      expect(await produceError('kept', 7, batchOf(['x']))).toBe(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
      expect(await produceError('kept', -1, batchOf(['x']))).toBe(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
      const metadata = await connection.request(Metadata, 4, metadataBody(['no-such-topic'], true));
      expect(metadata.topics[0]!.errorCode).toBe(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
      await expectServingAndIntact();
    });

    it('answers INVALID_RECORD for a control batch sent by a client', async () => {
      const marker = encodeTransactionMarkerBatch({
        type: 'commit',
        producerId: 1n,
        producerEpoch: 0,
        coordinatorEpoch: 0,
        timestampMs: 1_700_000_000_000,
      });
      expect(await produceError('kept', 0, marker)).toBe(ErrorCode.INVALID_RECORD);
      await expectServingAndIntact();
    });

    it("answers MESSAGE_TOO_LARGE for a batch above the topic's max.message.bytes", async () => {
      expect(await produceError('small', 0, batchOf(['x'.repeat(2048)]))).toBe(ErrorCode.MESSAGE_TOO_LARGE);
      expect(await produceError('small', 0, batchOf(['fits']))).toBe(0);
      await expectServingAndIntact();
    });

    it('sends nothing back for acks=0 but writes the records', async () => {
      const silent = connection.frame(
        Produce,
        7,
        produceBody(0, [
          { topic: 'quiet', partitions: [{ partition: 0, records: batchOf(['q-0', 'q-1']) }] },
        ]),
      );
      const next = connection.frame(Metadata, 1, metadataBody(['quiet'], false));
      await connection.write(Buffer.concat([silent.bytes, next.bytes]));
      // The first frame back answers the Metadata request: receive() checks its correlation id.
      const metadata = await connection.receive(Metadata, 1, next.correlationId);
      expect(metadata.topics[0]!.name).toBe('quiet');
      expect((await fetchValues(connection, 'quiet', 0)).values).toEqual(['q-0', 'q-1']);
      await expectServingAndIntact();
    });
  });

  describe('Fetch offsets', () => {
    let connection: RawConnection;

    beforeAll(async () => {
      connection = await RawConnection.open(broker.port);
    });
    afterAll(async () => {
      await connection.destroy();
    });

    it('answers OFFSET_OUT_OF_RANGE beyond the high watermark', async () => {
      const beyond = await fetchValues(connection, 'kept', 0, 4n);
      expect(beyond).toMatchObject({ errorCode: ErrorCode.OFFSET_OUT_OF_RANGE, highWatermark: 3n });
      const far = await fetchValues(connection, 'kept', 0, 2n ** 63n - 1n);
      expect(far.errorCode).toBe(ErrorCode.OFFSET_OUT_OF_RANGE);
      expect((await fetchValues(connection, 'kept', 0, -5n)).errorCode).toBe(ErrorCode.OFFSET_OUT_OF_RANGE);
      await expectServingAndIntact();
    });

    it('answers OFFSET_OUT_OF_RANGE below the log start after DeleteRecords', async () => {
      expect(await produceValues(connection, 'trimmed', 0, ['t-0', 't-1', 't-2', 't-3'])).toMatchObject({
        errorCode: 0,
      });
      const deleted = await connection.request(DeleteRecords, 1, {
        topics: [{ name: 'trimmed', partitions: [{ partitionIndex: 0, offset: 2n }] }],
        timeoutMs: 10_000,
      });
      expect(deleted.topics[0]!.partitions[0]).toMatchObject({ errorCode: 0, lowWatermark: 2n });
      const below = await fetchValues(connection, 'trimmed', 0, 1n);
      expect(below).toMatchObject({ errorCode: ErrorCode.OFFSET_OUT_OF_RANGE, logStartOffset: 2n });
      const atStart = await fetchValues(connection, 'trimmed', 0, 2n);
      expect(atStart.errorCode).toBe(0);
      // Whole batches come back, so the batch holding offset 2 starts at 0; the first record at or
      // after the log start is t-2.
      expect(atStart.values.slice(atStart.values.indexOf('t-2'))).toEqual(['t-2', 't-3']);
      await expectServingAndIntact();
    });

    it('answers a fetch at exactly the high watermark with zero-length records, not null', async () => {
      const atEnd = await fetchValues(connection, 'kept', 0, 3n);
      expect(atEnd.errorCode).toBe(0);
      expect(atEnd.records).not.toBeNull();
      expect(atEnd.records!.length).toBe(0);
    });

    it('answers UNKNOWN_TOPIC_OR_PARTITION for an unknown topic without waiting', async () => {
      const response = await connection.request(
        Fetch,
        11,
        fetchBody('no-such-topic', 0, 0n, { maxWaitMs: 30_000, minBytes: 1 }),
      );
      expect(fetchedPartition(response).errorCode).toBe(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
    });

    it('wakes a long-poll at the high watermark when another connection produces', async () => {
      const waiting = await RawConnection.open(broker.port);
      const producer = await RawConnection.open(broker.port);
      const hwm = (await fetchValues(waiting, 'waiting', 0)).highWatermark;
      const correlationId = await waiting.send(
        Fetch,
        11,
        fetchBody('waiting', 0, hwm, { maxWaitMs: 30_000, minBytes: 1 }),
      );
      // A round trip on another connection after the fetch's bytes were handed to the kernel: the
      // broker reads the fetch before this request, so the fetch is parked when the produce lands.
      expect((await producer.request(ApiVersions, 2, apiVersionsBody())).errorCode).toBe(0);
      expect(await produceValues(producer, 'waiting', 0, ['wake-up'])).toMatchObject({ errorCode: 0 });
      // Far below maxWaitMs: only the append can have answered it.
      const answer = fetchedPartition(await waiting.receive(Fetch, 11, correlationId, 5_000));
      expect(answer).toMatchObject({ errorCode: 0, highWatermark: hwm + 1n, values: ['wake-up'] });
      await waiting.destroy();
      await producer.destroy();
    });

    it('answers a fetch waiting for minBytes once pipelined appends reach it, even mid-read', async () => {
      // Each append wakes the fetch, which re-reads from disk; appends that land during that read
      // must still wake it, or it sleeps until maxWaitMs with the bytes already there. Several
      // rounds, because only some interleavings hit the window.
      const fetcher = await RawConnection.open(broker.port);
      const producer = await RawConnection.open(broker.port);
      for (let round = 0; round < 5; round++) {
        const values = Array.from({ length: 40 }, (_, index) => `${round}-${index}`.padEnd(400, '.'));
        const totalBytes = values.reduce((total, value) => total + batchOf([value]).length, 0);
        const hwm = (await fetchValues(fetcher, 'min-bytes', 0)).highWatermark;
        // Reached only by the last append.
        const minBytes = totalBytes - batchOf([values.at(-1)!]).length + 1;
        const correlationId = await fetcher.send(
          Fetch,
          11,
          fetchBody('min-bytes', 0, hwm, { maxWaitMs: 30_000, minBytes }),
        );
        const frames = values.map((value) =>
          producer.frame(
            Produce,
            7,
            produceBody(1, [
              { topic: 'min-bytes', partitions: [{ partition: 0, records: batchOf([value]) }] },
            ]),
          ),
        );
        await producer.write(Buffer.concat(frames.map((frame) => frame.bytes)));
        for (const frame of frames) {
          const response = await producer.receive(Produce, 7, frame.correlationId);
          expect(response.responses[0]!.partitionResponses[0]!.errorCode).toBe(0);
        }
        // Far below maxWaitMs: only the appends can have answered it.
        const answer = fetchedPartition(await fetcher.receive(Fetch, 11, correlationId, 5_000));
        expect(answer.errorCode).toBe(0);
        expect(answer.values).toEqual(values);
      }
      await Promise.all([fetcher.destroy(), producer.destroy()]);
    });

    it('stops a long-poll when its connection closes', async () => {
      const waiting = await RawConnection.open(broker.port);
      const hwm = (await fetchValues(waiting, 'waiting', 0)).highWatermark;
      await waiting.send(Fetch, 11, fetchBody('waiting', 0, hwm, { maxWaitMs: 30_000, minBytes: 1 }));
      // A round trip elsewhere so the broker has the fetch parked before the client goes away.
      expect((await bystander.request(ApiVersions, 2, apiVersionsBody())).errorCode).toBe(0);
      await waiting.destroy();
      await expectServingAndIntact();
    });
  });

  it('still has every record, as kcat (librdkafka 2.0) reads them', async () => {
    const stdout = await kcat(broker, ['-C', '-t', 'kept', '-p', '0', '-o', 'beginning', '-e']);
    expect(stdout.trim().split('\n')).toEqual(KEPT_VALUES);
  });
});

describe('Metadata and CreateTopics refuse bad topic names', { timeout: 30_000 }, () => {
  let broker: RunningBroker;
  let connection: RawConnection;

  beforeAll(async () => {
    broker = await startBroker({
      topics: { autoCreateEnable: true },
      shutdownTimeoutMs: SHUTDOWN_TIMEOUT_MS,
    });
    connection = await RawConnection.open(broker.port);
  });
  afterAll(async () => {
    await connection?.destroy();
    await broker?.dispose();
  });

  async function topicNames(): Promise<string[]> {
    const metadata = await connection.request(Metadata, 6, metadataBody(null, false));
    // Internal topics (__consumer_offsets, …) belong to the broker, not to these tests.
    return metadata.topics
      .filter((topic) => !topic.isInternal)
      .flatMap((topic) => (topic.name === null ? [] : [topic.name]))
      .sort();
  }

  async function create(name: string, partitions = 1, configs?: Record<string, string>) {
    const response = await connection.request(
      CreateTopics,
      4,
      createTopicsBody([{ name, partitions, configs }]),
    );
    return response.topics[0]!;
  }

  it('answers INVALID_TOPIC_EXCEPTION for an illegal name even with auto-create on', async () => {
    for (const name of ['bad name!', 'slash/topic', '..', 'x'.repeat(250)]) {
      const metadata = await connection.request(Metadata, 4, metadataBody([name], true));
      expect(metadata.topics).toEqual([
        expect.objectContaining({ name, errorCode: ErrorCode.INVALID_TOPIC_EXCEPTION, partitions: [] }),
      ]);
    }
    expect(await topicNames()).toEqual([]);
  });

  it('never auto-creates from a null topic list, and honours allow_auto_topic_creation=false', async () => {
    const all = await connection.request(Metadata, 4, metadataBody(null, true));
    expect(all.topics.filter((topic) => !topic.isInternal)).toEqual([]);
    const refused = await connection.request(Metadata, 4, metadataBody(['not-asked-for'], false));
    expect(refused.topics[0]!.errorCode).toBe(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
    const none = await connection.request(Metadata, 4, metadataBody([], true));
    expect(none.topics).toEqual([]);
    expect(await topicNames()).toEqual([]);
    const created = await connection.request(Metadata, 4, metadataBody(['asked-for'], true));
    expect(created.topics[0]).toMatchObject({ name: 'asked-for', errorCode: 0 });
    expect(await topicNames()).toEqual(['asked-for']);
  });

  it('answers INVALID_TOPIC_EXCEPTION for a 250-character name and accepts 249', async () => {
    const tooLong = await create('n'.repeat(250));
    expect(tooLong.errorCode).toBe(ErrorCode.INVALID_TOPIC_EXCEPTION);
    expect(tooLong.errorMessage).toMatch(/250/);
    expect((await create('n'.repeat(249))).errorCode).toBe(0);
  });

  it('answers INVALID_PARTITIONS for 0 or negative partitions', async () => {
    expect((await create('zero-partitions', 0)).errorCode).toBe(ErrorCode.INVALID_PARTITIONS);
    expect((await create('minus-two-partitions', -2)).errorCode).toBe(ErrorCode.INVALID_PARTITIONS);
    expect(await topicNames()).not.toContain('zero-partitions');
  });

  it("answers INVALID_TOPIC_EXCEPTION for 'a.b' after 'a_b' (the metric names would collide)", async () => {
    expect((await create('a_b')).errorCode).toBe(0);
    const collision = await create('a.b');
    expect(collision.errorCode).toBe(ErrorCode.INVALID_TOPIC_EXCEPTION);
    expect(collision.errorMessage).toContain('a_b');
    const viaMetadata = await connection.request(Metadata, 4, metadataBody(['a.b'], true));
    expect(viaMetadata.topics[0]!.errorCode).toBe(ErrorCode.INVALID_TOPIC_EXCEPTION);
    expect(await topicNames()).not.toContain('a.b');
  });

  it('answers INVALID_CONFIG naming the config for a bad or unknown topic config', async () => {
    const badValue = await create('bad-config', 1, { 'retention.ms': 'soon' });
    expect(badValue.errorCode).toBe(ErrorCode.INVALID_CONFIG);
    expect(badValue.errorMessage).toContain('retention.ms');
    const unknown = await create('unknown-config', 1, { 'retention.msec': '1000' });
    expect(unknown.errorCode).toBe(ErrorCode.INVALID_CONFIG);
    expect(unknown.errorMessage).toContain('retention.msec');
    expect(await topicNames()).not.toContain('bad-config');
  });

  it('refuses a name given twice in one request, and a colliding pair created concurrently', async () => {
    const response = await connection.request(
      CreateTopics,
      4,
      createTopicsBody([
        { name: 'twice', partitions: 1 },
        { name: 'c.d', partitions: 1 },
        { name: 'twice', partitions: 1 },
        { name: 'c_d', partitions: 1 },
      ]),
    );
    expect(response.topics.map((topic) => topic.errorCode)).toEqual([
      ErrorCode.INVALID_REQUEST,
      ErrorCode.NONE,
      ErrorCode.INVALID_REQUEST,
      ErrorCode.INVALID_TOPIC_EXCEPTION,
    ]);
    expect(response.topics[3]!.errorMessage).toContain('c.d');
    expect(await topicNames()).not.toContain('twice');
    expect(await topicNames()).not.toContain('c_d');
  });

  it('keeps serving, with exactly the topics that were valid', async () => {
    const fresh = await RawConnection.open(broker.port);
    const metadata = await fresh.request(Metadata, 6, metadataBody(null, false));
    await fresh.destroy();
    const names = metadata.topics.filter((topic) => !topic.isInternal).map((topic) => topic.name);
    expect(names.sort()).toEqual(['a_b', 'asked-for', 'c.d', 'n'.repeat(249)].sort());
    expect(metadata.topics.every((topic) => topic.errorCode === 0)).toBe(true);
  });
});

function flipLastByte(bytes: Buffer): Buffer {
  const copy = Buffer.from(bytes);
  copy[copy.length - 1]! ^= 0xff;
  return copy;
}

/** A magic 1 message whose value claims to be a gzip-compressed inner message set. */
function gzipWrapperOf(value: Buffer): Buffer {
  return encodeLegacyMessageSet([
    { offset: 0n, magic: 1, compression: 'gzip', timestampMs: 0, key: null, value },
  ]);
}
