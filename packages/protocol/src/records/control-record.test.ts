import { describe, expect, it } from 'vitest';
import { isControlBatch, isTransactionalBatch } from './batch-attributes';
import { checkBatch } from './batch-header';
import { decodeControlRecord, encodeControlRecordKey, encodeTransactionMarkerBatch } from './control-record';
import { decodeRecordBatch } from './record-batch';

describe('transaction marker batches', () => {
  for (const type of ['commit', 'abort'] as const) {
    it(`encodes a ${type} marker as Kafka does and decodes it back`, () => {
      const batch = encodeTransactionMarkerBatch({
        type,
        producerId: 4000n,
        producerEpoch: 2,
        coordinatorEpoch: 17,
        timestampMs: 1_700_000_000_000,
        baseOffset: 55n,
      });
      const header = checkBatch(batch);
      if (!header.ok) throw header.error;
      expect(isTransactionalBatch(header.value.attributes)).toBe(true);
      expect(isControlBatch(header.value.attributes)).toBe(true);
      expect(header.value).toMatchObject({
        attributes: 0x30,
        baseSequence: -1,
        producerId: 4000n,
        producerEpoch: 2,
        recordCount: 1,
        lastOffsetDelta: 0,
        partitionLeaderEpoch: -1,
      });

      const decoded = decodeRecordBatch(batch);
      if (!decoded.ok) throw decoded.error;
      const record = decoded.value.records[0]!;
      expect(record.key?.toString('hex')).toBe(type === 'commit' ? '00000001' : '00000000');
      expect(record.value?.toString('hex')).toBe('000000000011');
      expect(decodeControlRecord(record)).toEqual({ ok: true, value: { type, coordinatorEpoch: 17 } });
    });
  }

  it('reports control types it does not interpret as unknown', () => {
    const result = decodeControlRecord({ key: encodeControlRecordKey(3), value: Buffer.alloc(0) });
    expect(result).toEqual({ ok: true, value: { type: 'unknown', typeId: 3 } });
  });

  it('reads a newer key version as version 0, like Kafka', () => {
    const key = Buffer.from('00010001', 'hex');
    const result = decodeControlRecord({ key, value: Buffer.from('000100000005ffff', 'hex') });
    expect(result).toEqual({ ok: true, value: { type: 'commit', coordinatorEpoch: 5 } });
  });

  it('rejects short, missing or negative-version keys and short marker values', () => {
    const noKey = decodeControlRecord({ key: null, value: null });
    expect(!noKey.ok && noKey.error.kind).toBe('truncated');
    const shortKey = decodeControlRecord({ key: Buffer.from('0000', 'hex'), value: null });
    expect(!shortKey.ok && shortKey.error.kind).toBe('truncated');
    const negative = decodeControlRecord({ key: Buffer.from('ffff0001', 'hex'), value: null });
    expect(!negative.ok && negative.error.kind).toBe('invalid-value');
    const shortValue = decodeControlRecord({
      key: encodeControlRecordKey(1),
      value: Buffer.from('0000', 'hex'),
    });
    expect(!shortValue.ok && shortValue.error.kind).toBe('truncated');
  });
});
