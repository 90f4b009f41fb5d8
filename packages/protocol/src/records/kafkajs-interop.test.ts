import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { compress as zstdCompress, decompress as zstdDecompress } from 'zstd-napi';
import {
  headersArbitrary,
  nullableBytesArbitrary,
  timestampMsArbitrary,
} from '../../test/records/arbitraries';
import {
  decodeKafkajsBatch,
  encodeKafkajsBatch,
  encodeKafkajsRecord,
  type KafkajsCodec,
  type KafkajsDecodedRecord,
  kafkajsCompressionCodecs,
  kafkajsCompressionTypes,
  requireUntyped,
} from '../../test/records/kafkajs-internals';
import { COMPRESSION_TYPES, type CompressionType } from './batch-attributes';
import { encodeTransactionMarkerBatch } from './control-record';
import type { RecordHeaderInput } from './record';
import { decodeRecordBatch, encodeRecordBatch, type RecordInput } from './record-batch';

/**
 * Cross-checks against kafkajs 2.2.4's own RecordBatch encoder and decoder, an implementation we
 * share no code with. Its codecs come from the plugins real kafkajs users install (kafkajs-snappy,
 * kafkajs-lz4); kafkajs has no zstd plugin in our dev dependencies, so a small wrapper around
 * zstd-napi's high-level API stands in (our codec decodes through zstd's streaming API instead).
 */

const KAFKAJS_TYPE: Record<CompressionType, number> = {
  none: kafkajsCompressionTypes.None,
  gzip: kafkajsCompressionTypes.GZIP,
  snappy: kafkajsCompressionTypes.Snappy,
  lz4: kafkajsCompressionTypes.LZ4,
  zstd: kafkajsCompressionTypes.ZSTD,
};

beforeAll(() => {
  const LZ4Codec = requireUntyped<new () => { codec: () => KafkajsCodec }>('kafkajs-lz4');
  kafkajsCompressionCodecs[kafkajsCompressionTypes.Snappy] =
    requireUntyped<() => KafkajsCodec>('kafkajs-snappy');
  kafkajsCompressionCodecs[kafkajsCompressionTypes.LZ4] = new LZ4Codec().codec;
  kafkajsCompressionCodecs[kafkajsCompressionTypes.ZSTD] = () => ({
    compress: async (encoder) => zstdCompress(encoder.buffer),
    decompress: async (buffer) => zstdDecompress(buffer),
  });
});

/**
 * kafkajs keeps headers in plain objects, so a key such as "constructor" or "__proto__" collides
 * with Object.prototype in its decoder. Those keys are a kafkajs limitation, not a format one, and
 * are left out of the cross-checks.
 */
function isKafkajsSafeHeader(header: RecordHeaderInput): boolean {
  return !(header.key in Object.prototype);
}

/**
 * kafkajs takes headers as an object, so duplicates are grouped under their first key and keys are
 * ordered as `Object.keys` orders them. This is the list kafkajs will actually write.
 */
function kafkajsHeaderObject(headers: readonly RecordHeaderInput[]): Record<string, Buffer | Buffer[]> {
  const grouped: Record<string, Buffer[]> = {};
  for (const header of headers) {
    if (header.value === null) continue; // kafkajs 2.2.4 cannot encode a null header value
    const values = grouped[header.key];
    if (values) values.push(Buffer.from(header.value));
    else grouped[header.key] = [Buffer.from(header.value)];
  }
  return Object.fromEntries(
    Object.entries(grouped).map(([key, values]) => [key, values.length === 1 ? values[0]! : values]),
  );
}

function kafkajsHeaderList(headers: readonly RecordHeaderInput[]): RecordHeaderInput[] {
  return Object.entries(kafkajsHeaderObject(headers)).flatMap(([key, value]) =>
    (Array.isArray(value) ? value : [value]).map((item) => ({ key, value: item })),
  );
}

/** What kafkajs's decoder makes of a header list (duplicate keys become arrays). */
function kafkajsDecodedHeaders(headers: readonly RecordHeaderInput[] = []): KafkajsDecodedRecord['headers'] {
  const result: KafkajsDecodedRecord['headers'] = {};
  for (const { key, value } of headers) {
    const bytes = value === null ? null : Buffer.from(value);
    const existing = result[key];
    result[key] =
      existing === undefined ? bytes : Array.isArray(existing) ? [...existing, bytes] : [existing, bytes];
  }
  return result;
}

const kafkajsSafeHeadersArbitrary = headersArbitrary.map((headers) => headers.filter(isKafkajsSafeHeader));

const kafkajsRecordsArbitrary = fc.array(
  fc.record({
    key: nullableBytesArbitrary,
    value: nullableBytesArbitrary,
    headers: kafkajsSafeHeadersArbitrary.map(kafkajsHeaderList),
    timestampMs: timestampMsArbitrary,
  }),
  { minLength: 1, maxLength: 12 },
);

async function encodeWithKafkajs(
  records: readonly RecordInput[],
  compression: CompressionType,
): Promise<Buffer> {
  const firstTimestamp = records[0]!.timestampMs;
  return encodeKafkajsBatch({
    compression: KAFKAJS_TYPE[compression],
    firstTimestamp,
    maxTimestamp: Math.max(...records.map((record) => record.timestampMs)),
    lastOffsetDelta: records.length - 1,
    records: records.map((record, index) =>
      encodeKafkajsRecord({
        offsetDelta: index,
        timestampDelta: record.timestampMs - firstTimestamp,
        key: record.key ? Buffer.from(record.key) : null,
        value: record.value ? Buffer.from(record.value) : null,
        headers: kafkajsHeaderObject(record.headers ?? []),
      }),
    ),
  });
}

/** Our encoder with kafkajs's fixed header quirks: leader epoch 0, producer epoch 0, sequence 0. */
function encodeLikeKafkajs(records: readonly RecordInput[], compression: CompressionType): Buffer {
  return encodeRecordBatch({
    records,
    compression,
    partitionLeaderEpoch: 0,
    producerId: -1n,
    producerEpoch: 0,
    baseSequence: 0,
  });
}

const asArray = (bytes: Uint8Array | null | undefined) => (bytes ? Array.from(bytes) : null);

describe('kafkajs 2.2.4 interoperability', () => {
  it('produces byte-identical uncompressed and gzip batches for the same inputs', async () => {
    await fc.assert(
      fc.asyncProperty(
        kafkajsRecordsArbitrary,
        fc.constantFrom<CompressionType>('none', 'gzip'),
        async (records, type) => {
          const theirs = await encodeWithKafkajs(records, type);
          const ours = encodeLikeKafkajs(records, type);
          expect(ours.toString('hex')).toBe(theirs.toString('hex'));
        },
      ),
      { numRuns: 100 },
    );
  });

  for (const compression of COMPRESSION_TYPES) {
    it(`decodes kafkajs's ${compression} batches`, async () => {
      await fc.assert(
        fc.asyncProperty(kafkajsRecordsArbitrary, async (records) => {
          const decoded = decodeRecordBatch(await encodeWithKafkajs(records, compression));
          if (!decoded.ok) throw decoded.error;
          const batch = decoded.value;
          expect(batch.attributes & 0x07).toBe(KAFKAJS_TYPE[compression]);
          expect([batch.producerId, batch.producerEpoch, batch.baseSequence]).toEqual([-1n, 0, 0]);
          expect(batch.records.map((record) => record.offset)).toEqual(
            records.map((_, index) => BigInt(index)),
          );
          batch.records.forEach((record, index) => {
            const input = records[index]!;
            expect(record.timestampMs).toBe(input.timestampMs);
            expect(asArray(record.key)).toEqual(asArray(input.key));
            expect(asArray(record.value)).toEqual(asArray(input.value));
            expect(record.headers.map((header) => [header.key, asArray(header.value)])).toEqual(
              (input.headers ?? []).map((header) => [header.key, asArray(header.value)]),
            );
          });
        }),
        { numRuns: 40 },
      );
    });

    it(`produces ${compression} batches kafkajs decodes`, async () => {
      const recordsArbitrary = fc.array(
        fc.record({
          key: nullableBytesArbitrary,
          value: nullableBytesArbitrary,
          headers: kafkajsSafeHeadersArbitrary,
          timestampMs: timestampMsArbitrary,
        }),
        { minLength: 1, maxLength: 12 },
      );
      await fc.assert(
        fc.asyncProperty(
          recordsArbitrary,
          fc.bigInt({ min: 0n, max: 2n ** 50n }),
          async (records, baseOffset) => {
            const batch = encodeRecordBatch({
              records,
              compression,
              baseOffset,
              producerId: 77n,
              producerEpoch: 4,
              baseSequence: 9,
            });
            const theirs = await decodeKafkajsBatch(batch);
            expect(theirs.firstOffset).toBe(String(baseOffset));
            expect(theirs.firstTimestamp).toBe(String(records[0]!.timestampMs));
            expect(theirs.maxTimestamp).toBe(
              String(Math.max(...records.map((record) => record.timestampMs))),
            );
            expect([theirs.producerId, theirs.producerEpoch, theirs.firstSequence]).toEqual(['77', 4, 9]);
            expect([theirs.partitionLeaderEpoch, theirs.lastOffsetDelta, theirs.inTransaction]).toEqual([
              -1,
              records.length - 1,
              false,
            ]);
            expect(theirs.records).toHaveLength(records.length);
            theirs.records.forEach((record, index) => {
              const input = records[index]!;
              expect(record.offset).toBe(String(baseOffset + BigInt(index)));
              expect(record.timestamp).toBe(String(input.timestampMs));
              expect(asArray(record.key)).toEqual(asArray(input.key));
              expect(asArray(record.value)).toEqual(asArray(input.value));
              expect(record.headers).toEqual(kafkajsDecodedHeaders(input.headers));
            });
          },
        ),
        { numRuns: 40 },
      );
    });
  }

  it('produces transaction markers kafkajs recognises as control records', async () => {
    const marker = encodeTransactionMarkerBatch({
      type: 'commit',
      producerId: 12n,
      producerEpoch: 1,
      coordinatorEpoch: 3,
      timestampMs: 1_700_000_000_000,
      baseOffset: 40n,
    });
    const theirs = await decodeKafkajsBatch(marker);
    expect([theirs.isControlBatch, theirs.inTransaction, theirs.firstSequence]).toEqual([true, true, -1]);
    expect(theirs.records[0]?.isControlRecord).toBe(true);
    expect(theirs.records[0]?.key?.toString('hex')).toBe('00000001');
    expect(theirs.records[0]?.offset).toBe('40');
  });
});
