import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type BatchAttributeFlags,
  batchCompression,
  batchCompressionId,
  batchTimestampType,
  COMPRESSION_TYPES,
  compressionTypeId,
  decodeBatchAttributes,
  encodeBatchAttributes,
  hasDeleteHorizon,
  isControlBatch,
  isTransactionalBatch,
} from './batch-attributes';

describe('batch attributes', () => {
  it('uses Kafka codec ids 0–4', () => {
    expect(COMPRESSION_TYPES.map(compressionTypeId)).toEqual([0, 1, 2, 3, 4]);
    expect(encodeBatchAttributes({ compression: 'zstd' })).toBe(4);
    expect(batchCompression(3)).toBe('lz4');
    expect(batchCompression(5)).toBeUndefined();
    expect(batchCompressionId(0x37)).toBe(7);
  });

  it('places each flag on its Kafka bit', () => {
    expect(encodeBatchAttributes({ timestampType: 'log-append-time' })).toBe(0x08);
    expect(encodeBatchAttributes({ isTransactional: true })).toBe(0x10);
    expect(encodeBatchAttributes({ isControl: true })).toBe(0x20);
    expect(encodeBatchAttributes({ hasDeleteHorizon: true })).toBe(0x40);
    // A transaction marker batch: transactional and control.
    expect(encodeBatchAttributes({ isTransactional: true, isControl: true })).toBe(0x30);
    expect(isTransactionalBatch(0x30)).toBe(true);
    expect(isControlBatch(0x30)).toBe(true);
    expect(isControlBatch(0x10)).toBe(false);
    expect(batchTimestampType(0x08)).toBe('log-append-time');
    expect(batchTimestampType(0x00)).toBe('create-time');
    expect(hasDeleteHorizon(0x40)).toBe(true);
  });

  it('round-trips every combination of flags', () => {
    const flagsArbitrary: fc.Arbitrary<BatchAttributeFlags> = fc.record({
      compression: fc.constantFrom(...COMPRESSION_TYPES),
      timestampType: fc.constantFrom('create-time', 'log-append-time'),
      isTransactional: fc.boolean(),
      isControl: fc.boolean(),
      hasDeleteHorizon: fc.boolean(),
    });
    fc.assert(
      fc.property(flagsArbitrary, (flags) => {
        const attributes = encodeBatchAttributes(flags);
        expect(attributes & ~0x7f).toBe(0);
        expect(decodeBatchAttributes(attributes)).toEqual(flags);
      }),
    );
  });

  it('reports an undefined codec id as undefined rather than guessing', () => {
    expect(decodeBatchAttributes(0x06)).toBeUndefined();
  });
});
