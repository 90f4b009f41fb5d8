import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import {
  ApiVersions,
  apiByKey,
  CreateTopics,
  ErrorCode,
  Fetch,
  isFlexible,
  Metadata,
  Reader,
  ZERO_UUID,
} from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientListenerHandlers } from '../src/server/api-table';
import { HandlerRegistry } from '../src/server/handler-registry';
import { fetchValues, produceValues, RawConnection, rawFrame, rawRequestHeader } from './raw-socket';

const run = promisify(execFile);

interface AdvertisedRange {
  apiKey: number;
  minVersion: number;
  maxVersion: number;
}

/** An unsigned LEB128 varint, for hand-made flexible bytes. */
function uvarint(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest & 0x7f) | 0x80);
    rest >>>= 7;
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

function compactString(value: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  return Buffer.concat([uvarint(bytes.length + 1), bytes]);
}

/**
 * ApiVersions v3 exactly as librdkafka 2.0 sends it (docs/kafka-compat.md §1.2): request header v2 (the
 * client id stays a classic int16 string, then an empty tag section), then a flexible body with
 * the client software name and version and its own empty tag section.
 */
function librdkafkaApiVersionsV3(correlationId: number): Buffer {
  return rawFrame(
    Buffer.concat([
      rawRequestHeader(18, 3, correlationId, 'rdkafka'),
      Buffer.of(0),
      compactString('librdkafka'),
      compactString('2.0.2'),
      Buffer.of(0),
    ]),
  );
}

/**
 * Decodes an ApiVersions v3 response by hand, independently of the codec: response header v0 (no
 * tag section), error code, compact array of {key, min, max, tags}, throttle time, tags.
 */
function decodeV3ByHand(frame: Buffer): {
  correlationId: number;
  errorCode: number;
  apiKeys: AdvertisedRange[];
  throttleTimeMs: number;
} {
  const reader = new Reader(frame);
  const correlationId = reader.int32();
  const errorCode = reader.int16();
  const count = reader.uvarint() - 1;
  const apiKeys: AdvertisedRange[] = [];
  for (let index = 0; index < count; index++) {
    const apiKey = reader.int16();
    const minVersion = reader.int16();
    const maxVersion = reader.int16();
    expect(reader.uvarint(), `tag section of key ${apiKey}`).toBe(0);
    apiKeys.push({ apiKey, minVersion, maxVersion });
  }
  const throttleTimeMs = reader.int32();
  expect(reader.uvarint(), 'top-level tag section (no feature tags)').toBe(0);
  reader.expectEnd('ApiVersions v3 response');
  return { correlationId, errorCode, apiKeys, throttleTimeMs };
}

/** The exact bytes of the v0-shaped UNSUPPORTED_VERSION answer Kafka gives (docs/kafka-compat.md §4). */
function unsupportedVersionAnswer(correlationId: number): Buffer {
  const body = Buffer.alloc(16);
  body.writeInt32BE(correlationId, 0);
  body.writeInt16BE(ErrorCode.UNSUPPORTED_VERSION, 4);
  body.writeInt32BE(1, 6);
  body.writeInt16BE(18, 10);
  body.writeInt16BE(0, 12);
  body.writeInt16BE(3, 14);
  return body;
}

const servedByRegistry = new HandlerRegistry(clientListenerHandlers(false)).advertised();

describe('ApiVersions', { timeout: 30_000 }, () => {
  let broker: RunningBroker;

  beforeAll(async () => {
    broker = await startBroker({ topics: { autoCreateEnable: false }, shutdownTimeoutMs: 2_000 });
    const setup = await RawConnection.open(broker.port);
    const created = await setup.request(CreateTopics, 4, {
      topics: [{ name: 'kept', numPartitions: 1, replicationFactor: 1, assignments: [], configs: [] }],
      timeoutMs: 10_000,
      validateOnly: false,
    });
    expect(created.topics[0]!.errorCode).toBe(0);
    expect((await produceValues(setup, 'kept', 0, ['a', 'b', 'c'])).errorCode).toBe(0);
    await setup.destroy();
  });
  afterAll(async () => {
    await broker?.dispose();
  });

  async function expectServingAndIntact(): Promise<void> {
    const fresh = await RawConnection.open(broker.port);
    const kept = await fetchValues(fresh, 'kept', 0);
    expect(kept).toMatchObject({ errorCode: 0, highWatermark: 3n, values: ['a', 'b', 'c'] });
    await fresh.destroy();
  }

  it('answers v3 as librdkafka 2.0 sends it, with a compact body behind response header v0', async () => {
    const connection = await RawConnection.open(broker.port);
    await connection.write(librdkafkaApiVersionsV3(41));
    const answer = decodeV3ByHand(await connection.nextFrame());
    expect(answer).toMatchObject({ correlationId: 41, errorCode: 0, throttleTimeMs: 0 });
    expect(answer.apiKeys).toEqual(servedByRegistry);
    // The connection goes on: the next request is a normal one.
    const metadata = await connection.request(Metadata, 4, {
      topics: [{ topicId: ZERO_UUID, name: 'kept' }],
      allowAutoTopicCreation: false,
      includeClusterAuthorizedOperations: false,
      includeTopicAuthorizedOperations: false,
    });
    expect(metadata.topics[0]!.errorCode).toBe(0);
    await connection.destroy();
  });

  it('advertises exactly what the registry serves, with the ranges both clients need', async () => {
    const connection = await RawConnection.open(broker.port);
    await connection.write(librdkafkaApiVersionsV3(1));
    const { apiKeys } = decodeV3ByHand(await connection.nextFrame());
    await connection.destroy();
    const byKey = new Map(apiKeys.map((range) => [range.apiKey, range]));
    expect(byKey.size).toBe(apiKeys.length);
    expect(apiKeys.map((range) => range.apiKey)).toEqual([...byKey.keys()].sort((a, b) => a - b));
    for (const range of apiKeys) {
      const handler = new HandlerRegistry(clientListenerHandlers(false)).get(range.apiKey);
      expect(handler?.versions, `key ${range.apiKey}`).toEqual({
        min: range.minVersion,
        max: range.maxVersion,
      });
    }
    expect(byKey.get(0)).toEqual({ apiKey: 0, minVersion: 0, maxVersion: 8 });
    expect(byKey.get(1)).toEqual({ apiKey: 1, minVersion: 0, maxVersion: 11 });
    expect(byKey.get(2)).toEqual({ apiKey: 2, minVersion: 0, maxVersion: 5 });
    // Metadata v10+ carries the topic ids consumer-protocol assignments name topics by.
    expect(byKey.get(3)).toEqual({ apiKey: 3, minVersion: 0, maxVersion: 12 });
    expect(byKey.get(18)).toEqual({ apiKey: 18, minVersion: 0, maxVersion: 3 });
    expect(byKey.get(19)).toEqual({ apiKey: 19, minVersion: 0, maxVersion: 4 });
    expect(byKey.get(22)).toEqual({ apiKey: 22, minVersion: 0, maxVersion: 1 });
    // Kafka 3.9's non-flexible versions: DeleteTopics v2–3 and the transaction APIs' v2 repeat earlier layouts.
    expect(byKey.get(20)).toEqual({ apiKey: 20, minVersion: 0, maxVersion: 3 });
    expect(byKey.get(24)).toEqual({ apiKey: 24, minVersion: 0, maxVersion: 2 });
    expect(byKey.get(25)).toEqual({ apiKey: 25, minVersion: 0, maxVersion: 2 });
    expect(byKey.get(26)).toEqual({ apiKey: 26, minVersion: 0, maxVersion: 2 });
    // Batches carry real leader epochs, so librdkafka ≥ 2.1 validates positions with
    // OffsetForLeaderEpoch: it is served at its non-flexible versions (docs/kafka-compat.md §6.5).
    expect(byKey.get(23)).toEqual({ apiKey: 23, minVersion: 0, maxVersion: 3 });
    // The consumer group protocol (KIP-848), defined only in flexible versions.
    expect(byKey.get(68)).toEqual({ apiKey: 68, minVersion: 0, maxVersion: 0 }); // ConsumerGroupHeartbeat
    expect(byKey.get(69)).toEqual({ apiKey: 69, minVersion: 0, maxVersion: 0 }); // ConsumerGroupDescribe
    // Never advertise what is not implemented: kafka-javascript uses these on sight (docs/kafka-compat.md §1.3).
    expect(byKey.has(71)).toBe(false); // GetTelemetrySubscriptions

    // librdkafka < 2.11.1 probes single versions (docs/kafka-compat.md §1.2): each must lie in its range,
    // or it silently turns off magic-2 produce (Produce 3, Fetch 4), gzip, snappy and lz4 (Produce 0),
    // zstd (Produce 7, Fetch 10) and idempotence (InitProducerId 0).
    const probes: [apiKey: number, version: number][] = [
      [0, 0],
      [0, 3],
      [0, 7],
      [1, 4],
      [1, 10],
      [22, 0],
      [18, 0],
    ];
    for (const [apiKey, version] of probes) {
      const range = byKey.get(apiKey);
      expect(range, `key ${apiKey}`).toBeDefined();
      expect(version, `key ${apiKey} probe`).toBeGreaterThanOrEqual(range!.minVersion);
      expect(version, `key ${apiKey} probe`).toBeLessThanOrEqual(range!.maxVersion);
    }
    // The group APIs are optional (they land with the group coordinator), but once advertised,
    // librdkafka 2.0's exact probes must hit: FindCoordinator 0 (groups, and LZ4 too), JoinGroup,
    // SyncGroup, Heartbeat and LeaveGroup 0, OffsetFetch 1, OffsetCommit overlapping 1..2.
    const optionalProbes: [apiKey: number, version: number][] = [
      [10, 0],
      [11, 0],
      [14, 0],
      [12, 0],
      [13, 0],
      [9, 1],
    ];
    for (const [apiKey, version] of optionalProbes) {
      const range = byKey.get(apiKey);
      if (!range) continue;
      expect(version, `key ${apiKey} probe`).toBeGreaterThanOrEqual(range.minVersion);
      expect(version, `key ${apiKey} probe`).toBeLessThanOrEqual(range.maxVersion);
    }
    const offsetCommit = byKey.get(8);
    if (offsetCommit) expect(offsetCommit.minVersion).toBeLessThanOrEqual(2);
    // Flexible versions are advertised only where a client needs them (the KIP-848 APIs, and the
    // Metadata and OffsetCommit versions consumer-protocol members use), and only above what
    // kafkajs 2.2.4 and librdkafka 2.0.2 speak: both take min(their max, ours), so what they pick
    // stays the non-flexible version they picked before (their maxima: docs/kafka-compat.md §2).
    const FLEXIBLE_ONLY = new Set([68, 69]);
    const clientMaxima: Record<number, { kafkajs: number; librdkafka: number }> = {
      3: { kafkajs: 6, librdkafka: 4 },
      8: { kafkajs: 5, librdkafka: 7 },
    };
    const flexible = apiKeys.filter(
      (range) =>
        range.apiKey !== ApiVersions.apiKey &&
        !FLEXIBLE_ONLY.has(range.apiKey) &&
        isFlexible(apiByKey(range.apiKey)!, range.maxVersion),
    );
    expect(flexible.map((range) => range.apiKey)).toEqual(
      Object.keys(clientMaxima)
        .map(Number)
        .filter(
          (apiKey) => byKey.has(apiKey) && isFlexible(apiByKey(apiKey)!, byKey.get(apiKey)!.maxVersion),
        ),
    );
    for (const range of flexible) {
      const maxima = clientMaxima[range.apiKey]!;
      for (const [client, clientMax] of Object.entries(maxima)) {
        const picked = Math.min(clientMax, range.maxVersion);
        expect(picked, `${client} picks key ${range.apiKey} v${clientMax}`).toBe(clientMax);
        expect(isFlexible(apiByKey(range.apiKey)!, picked), `${client} key ${range.apiKey}`).toBe(false);
      }
    }
  });

  it.each([0, 1, 2, 3])('answers v%i through the codec with the same list', async (version) => {
    const connection = await RawConnection.open(broker.port);
    const response = await connection.request(ApiVersions, version, {
      clientSoftwareName: 'weir-test',
      clientSoftwareVersion: '1.0.0',
    });
    expect(response.errorCode).toBe(0);
    expect(response.apiKeys).toEqual(servedByRegistry);
    expect(response.throttleTimeMs).toBe(0);
    await connection.destroy();
  });

  it.each([4, 5, 100, 0x7fff])(
    'answers v%i with the v0-shaped UNSUPPORTED_VERSION and [{18, 0, 3}], keeping the connection',
    async (version) => {
      const connection = await RawConnection.open(broker.port);
      // The body is not parsed at an unknown version, whatever it holds.
      await connection.write(
        rawFrame(Buffer.concat([rawRequestHeader(18, version, 9), Buffer.of(0, 1, 2, 3)])),
      );
      expect((await connection.nextFrame()).equals(unsupportedVersionAnswer(9))).toBe(true);
      // librdkafka then retries at v0 on the same connection.
      const retry = await connection.request(ApiVersions, 0, {
        clientSoftwareName: '',
        clientSoftwareVersion: '',
      });
      expect(retry.errorCode).toBe(0);
      expect(retry.apiKeys).toEqual(servedByRegistry);
      await connection.destroy();
      await expectServingAndIntact();
    },
  );

  it('answers an unknown version even when the frame ends right after the header', async () => {
    const connection = await RawConnection.open(broker.port);
    await connection.write(rawFrame(rawRequestHeader(18, 4, 12, null)));
    expect((await connection.nextFrame()).equals(unsupportedVersionAnswer(12))).toBe(true);
    await connection.destroy();
  });

  it('closes the connection on a v3 request whose body is cut short', async () => {
    const connection = await RawConnection.open(broker.port);
    const header = Buffer.concat([rawRequestHeader(18, 3, 5, 'rdkafka'), Buffer.of(0)]);
    // A compact string announcing 40 bytes with 3 behind it.
    await connection.write(rawFrame(Buffer.concat([header, uvarint(41), Buffer.from('lib')])));
    await connection.closed();
    await expectServingAndIntact();
  });

  it('closes the connection on a v3 request whose tag section lies', async () => {
    const connection = await RawConnection.open(broker.port);
    // Header tags: one field, tag 0, size 1000, but nothing behind it.
    const header = Buffer.concat([
      rawRequestHeader(18, 3, 6, 'rdkafka'),
      uvarint(1),
      uvarint(0),
      uvarint(1000),
    ]);
    await connection.write(rawFrame(header));
    await connection.closed();
    await expectServingAndIntact();
  });

  it('lets kcat (librdkafka 2.0) negotiate at v3 without falling back', async () => {
    const { stdout, stderr } = await run(
      'kcat',
      [
        '-b',
        broker.bootstrap,
        '-X',
        'broker.address.family=v4',
        '-L',
        '-t',
        'kept',
        '-d',
        'protocol,feature',
      ],
      { timeout: 30_000 },
    );
    expect(stdout).toContain('topic "kept" with 1 partitions');
    expect(stderr).toContain('Received ApiVersionResponse (v3');
    expect(stderr).not.toMatch(/Protocol parse failure/i);
    expect(stderr).not.toContain('Sent ApiVersionRequest (v0');
    // The features its single-version probes decide (docs/kafka-compat.md §1.2).
    for (const feature of ['MsgVer2', 'ZSTD', 'IdempotentProducer']) {
      expect(stderr).toContain(`Enabling feature ${feature}`);
    }
  });

  it('serves a Fetch at the newest advertised version after the handshake', async () => {
    const connection = await RawConnection.open(broker.port);
    await connection.write(librdkafkaApiVersionsV3(0));
    decodeV3ByHand(await connection.nextFrame());
    const fetchVersion = servedByRegistry.find((range) => range.apiKey === Fetch.apiKey)!.maxVersion;
    expect(fetchVersion).toBe(11);
    expect((await fetchValues(connection, 'kept', 0)).values).toEqual(['a', 'b', 'c']);
    await connection.destroy();
  });
});
