import { beforeAll, describe, expect, it } from 'vitest';
import {
  type KafkajsCodec,
  kafkajsCompressionCodecs,
  kafkajsCompressionTypes,
  requireUntyped,
} from '../../../test/records/kafkajs-internals';
import { batchCompression, batchTimestampType } from '../batch-attributes';
import { withHeaderChecksum } from '../compression/lz4';
import { compressBytes, decompressBytes } from '../compression/registry';
import { encodeTransactionMarkerBatch } from '../control-record';
import { decodeRecordBatch, encodeRecordBatch } from '../record-batch';
import { batchesToLegacyMessageSet } from './batch-to-legacy';
import { decodeLegacyMessageSet, encodeLegacyMessageSet, type LegacyMessage } from './legacy-message';
import { legacyMessageSetToBatch } from './legacy-to-batch';

/**
 * The legacy message formats (magic 0 and 1) against kafkajs 2.2.4's own message-set encoder and
 * decoder, which it still carries for Produce v0–v2 and Fetch v0–v3 and shares no code with ours.
 */

interface KafkajsEncoder {
  buffer: Buffer;
}
interface KafkajsMessage {
  offset: string;
  magicByte: number;
  attributes: number;
  timestamp?: string;
  key: Buffer | null;
  value: Buffer | null;
}
const kafkajsMessageSet = requireUntyped<
  (input: {
    messageVersion: number;
    compression?: number;
    entries: { key: string | null; value: string | Buffer | null; timestamp?: number }[];
  }) => KafkajsEncoder
>('kafkajs/src/protocol/messageSet');
const KafkajsDecoder = requireUntyped<new (buffer: Buffer) => unknown>('kafkajs/src/protocol/decoder');
const kafkajsDecodeMessageSet = requireUntyped<(decoder: unknown, size: number) => Promise<KafkajsMessage[]>>(
  'kafkajs/src/protocol/messageSet/decoder',
);

beforeAll(() => {
  const LZ4Codec = requireUntyped<new () => { codec: () => KafkajsCodec }>('kafkajs-lz4');
  kafkajsCompressionCodecs[kafkajsCompressionTypes.LZ4] = new LZ4Codec().codec;
});

function kafkajsSet(magic: 0 | 1, values: string[], timestampMs = 1_700_000_000_000): Buffer {
  return kafkajsMessageSet({
    messageVersion: magic,
    entries: values.map((value, index) => ({ key: `k${index}`, value, timestamp: timestampMs + index })),
  }).buffer;
}

describe('legacy message sets', () => {
  it.each([0, 1] as const)('decodes a magic %i set kafkajs wrote, and encodes it byte for byte', (magic) => {
    const bytes = kafkajsSet(magic, ['a', 'bb', 'ccc']);
    const decoded = decodeLegacyMessageSet(bytes);
    if (!decoded.ok) throw decoded.error;
    expect(
      decoded.value.map((message) => [message.magic, message.key?.toString(), message.value?.toString()]),
    ).toEqual([
      [magic, 'k0', 'a'],
      [magic, 'k1', 'bb'],
      [magic, 'k2', 'ccc'],
    ]);
    expect(decoded.value.map((message) => message.timestampMs)).toEqual(
      magic === 0 ? [-1, -1, -1] : [1_700_000_000_000, 1_700_000_000_001, 1_700_000_000_002],
    );
    expect(encodeLegacyMessageSet(decoded.value)).toEqual(bytes);
  });

  it('refuses a flipped byte, a cut set and another magic', () => {
    const bytes = kafkajsSet(1, ['value']);
    const flipped = Buffer.from(bytes);
    flipped[flipped.length - 1]! ^= 0xff;
    expect(decodeLegacyMessageSet(flipped)).toMatchObject({
      ok: false,
      error: { kind: 'checksum-mismatch' },
    });
    expect(decodeLegacyMessageSet(bytes.subarray(0, bytes.length - 2))).toMatchObject({
      ok: false,
      error: { kind: 'truncated' },
    });
    const magic2 = Buffer.from(bytes);
    magic2[16] = 2;
    expect(decodeLegacyMessageSet(magic2)).toMatchObject({
      ok: false,
      error: { kind: 'unsupported-version' },
    });
  });
});

describe('Produce v0–v2 conversion to a RecordBatch', () => {
  it.each([0, 1] as const)('turns an uncompressed magic %i set into one uncompressed batch', (magic) => {
    const converted = legacyMessageSetToBatch(kafkajsSet(magic, ['x', 'y']));
    if (!converted.ok) throw converted.error;
    const batch = decodeRecordBatch(converted.value);
    if (!batch.ok) throw batch.error;
    expect(batchCompression(batch.value.attributes)).toBe('none');
    expect(batch.value.producerId).toBe(-1n);
    expect(
      batch.value.records.map((record) => [record.offset, record.key?.toString(), record.value?.toString()]),
    ).toEqual([
      [0n, 'k0', 'x'],
      [1n, 'k1', 'y'],
    ]);
    expect(batch.value.records.map((record) => record.timestampMs)).toEqual(
      magic === 0 ? [-1, -1] : [1_700_000_000_000, 1_700_000_000_001],
    );
  });

  it.each(['gzip', 'snappy', 'lz4'] as const)(
    'keeps the codec of a compressed magic 1 wrapper (%s)',
    (codec) => {
      const inner = kafkajsSet(1, ['one', 'two', 'three']);
      const wrapper = encodeLegacyMessageSet([
        {
          offset: 2n,
          magic: 1,
          compression: codec,
          timestampMs: 1_700_000_000_002,
          key: null,
          value: compressBytes(codec, inner),
        },
      ]);
      const converted = legacyMessageSetToBatch(wrapper);
      if (!converted.ok) throw converted.error;
      const batch = decodeRecordBatch(converted.value);
      if (!batch.ok) throw batch.error;
      expect(batchCompression(batch.value.attributes)).toBe(codec);
      expect(batch.value.records.map((record) => record.value?.toString())).toEqual(['one', 'two', 'three']);
    },
  );

  it("reads magic 0 LZ4 with Kafka 0.8's header checksum", () => {
    const frame = withHeaderChecksum(compressBytes('lz4', kafkajsSet(0, ['old', 'lz4'])), 'kafka-0.8');
    expect(decompressBytes('lz4', frame).ok).toBe(false);
    const wrapper = encodeLegacyMessageSet([
      { offset: 1n, magic: 0, compression: 'lz4', key: null, value: frame },
    ]);
    const converted = legacyMessageSetToBatch(wrapper);
    if (!converted.ok) throw converted.error;
    const batch = decodeRecordBatch(converted.value);
    if (!batch.ok) throw batch.error;
    expect(batch.value.records.map((record) => record.value?.toString())).toEqual(['old', 'lz4']);
  });

  it('refuses an empty set, a nested wrapper and a wrapper that does not decompress', () => {
    expect(legacyMessageSetToBatch(Buffer.alloc(0))).toMatchObject({
      ok: false,
      error: { kind: 'invalid-length' },
    });
    const innerWrapper = encodeLegacyMessageSet([
      {
        offset: 0n,
        magic: 1,
        compression: 'gzip',
        key: null,
        value: compressBytes('gzip', kafkajsSet(1, ['a'])),
      },
    ]);
    const nested = encodeLegacyMessageSet([
      { offset: 0n, magic: 1, compression: 'gzip', key: null, value: compressBytes('gzip', innerWrapper) },
    ]);
    expect(legacyMessageSetToBatch(nested)).toMatchObject({ ok: false, error: { kind: 'invalid-value' } });
    const garbage = encodeLegacyMessageSet([
      { offset: 0n, magic: 1, compression: 'snappy', key: null, value: Buffer.from('not snappy') },
    ]);
    expect(legacyMessageSetToBatch(garbage)).toMatchObject({
      ok: false,
      error: { kind: 'decompression-failed' },
    });
  });
});

describe('Fetch v0–v3 conversion from stored batches', () => {
  /** A stored batch at base offset 100 whose records sit at offsets 100, 103 and 104 (a compacted gap). */
  function storedBatch(
    codec: 'none' | 'gzip' | 'lz4' | 'zstd',
    timestampType: 'create-time' | 'log-append-time',
  ) {
    const batch = encodeRecordBatch({
      baseOffset: 100n,
      compression: codec,
      timestampType,
      lastOffsetDelta: 4,
      maxTimestampMs: 1_700_000_000_009,
      records: [
        {
          key: Buffer.from('a'),
          value: Buffer.from('first'),
          timestampMs: 1_700_000_000_000,
          offsetDelta: 0,
          headers: [{ key: 'h', value: Buffer.from('v') }],
        },
        { key: null, value: Buffer.from('second'), timestampMs: 1_700_000_000_001, offsetDelta: 3 },
        { key: Buffer.from('c'), value: null, timestampMs: 1_700_000_000_002, offsetDelta: 4 },
      ],
    });
    return batch;
  }

  async function kafkajsRead(bytes: Buffer): Promise<KafkajsMessage[]> {
    return kafkajsDecodeMessageSet(new KafkajsDecoder(bytes), bytes.length);
  }

  it.each(['none', 'gzip', 'lz4'] as const)(
    'kafkajs reads every record of a %s batch at its offset in magic 1',
    async (codec) => {
      const marker = encodeTransactionMarkerBatch({
        baseOffset: 105n,
        producerId: 7n,
        producerEpoch: 0,
        type: 'commit',
        coordinatorEpoch: 0,
        timestampMs: 1_700_000_000_010,
      });
      const converted = batchesToLegacyMessageSet(
        Buffer.concat([storedBatch(codec, 'create-time'), marker]),
        1,
      );
      if (!converted.ok) throw converted.error;
      const messages = await kafkajsRead(converted.value);
      expect(
        messages.map((message) => [
          message.offset,
          message.key?.toString() ?? null,
          message.value?.toString() ?? null,
        ]),
      ).toEqual([
        ['100', 'a', 'first'],
        ['103', null, 'second'],
        ['104', 'c', null],
      ]);
      expect(messages.map((message) => Number(message.timestamp))).toEqual([
        1_700_000_000_000, 1_700_000_000_001, 1_700_000_000_002,
      ]);
      const outer = decodeLegacyMessageSet(converted.value);
      if (!outer.ok) throw outer.error;
      expect(outer.value.map((message: LegacyMessage) => message.compression)).toEqual(
        codec === 'none' ? ['none', 'none', 'none'] : [codec],
      );
    },
  );

  it('sends zstd uncompressed and magic 0 without timestamps', async () => {
    const converted = batchesToLegacyMessageSet(storedBatch('zstd', 'create-time'), 0);
    if (!converted.ok) throw converted.error;
    const outer = decodeLegacyMessageSet(converted.value);
    if (!outer.ok) throw outer.error;
    expect(
      outer.value.map((message) => [message.offset, message.magic, message.compression, message.timestampMs]),
    ).toEqual([
      [100n, 0, 'none', -1],
      [103n, 0, 'none', -1],
      [104n, 0, 'none', -1],
    ]);
    expect((await kafkajsRead(converted.value)).map((message) => message.offset)).toEqual([
      '100',
      '103',
      '104',
    ]);
  });

  it('marks a LogAppendTime batch and gives its records the append time', () => {
    const converted = batchesToLegacyMessageSet(storedBatch('none', 'log-append-time'), 1);
    if (!converted.ok) throw converted.error;
    const outer = decodeLegacyMessageSet(converted.value);
    if (!outer.ok) throw outer.error;
    expect(new Set(outer.value.map((message) => message.timestampType))).toEqual(
      new Set(['log-append-time']),
    );
    expect(new Set(outer.value.map((message) => message.timestampMs))).toEqual(new Set([1_700_000_000_009]));
    const batch = decodeRecordBatch(storedBatch('none', 'log-append-time'));
    if (!batch.ok) throw batch.error;
    expect(batchTimestampType(batch.value.attributes)).toBe('log-append-time');
  });

  it('leaves out a partial batch at the end', () => {
    const whole = storedBatch('none', 'create-time');
    const converted = batchesToLegacyMessageSet(Buffer.concat([whole, whole.subarray(0, 30)]), 1);
    if (!converted.ok) throw converted.error;
    const outer = decodeLegacyMessageSet(converted.value);
    expect(outer.ok && outer.value.length).toBe(3);
  });
});
