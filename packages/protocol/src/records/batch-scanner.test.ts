import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recordsArbitrary } from '../../test/records/arbitraries';
import { BatchLayout } from './batch-header';
import { iterateBatches, splitBatches } from './batch-scanner';
import { encodeRecordBatch } from './record-batch';

const batchesArbitrary = fc.array(
  recordsArbitrary.map((records) => encodeRecordBatch({ records })),
  { minLength: 1, maxLength: 5 },
);

describe('splitBatches', () => {
  it('returns a view of each batch of a concatenation', () => {
    fc.assert(
      fc.property(batchesArbitrary, (batches) => {
        const blob = Buffer.concat(batches);
        const split = splitBatches(blob);
        if (!split.ok) throw split.error;
        expect(split.value.partialTail).toBeNull();
        expect(split.value.batches.map((view) => view.toString('hex'))).toEqual(
          batches.map((batch) => batch.toString('hex')),
        );
        expect(split.value.batches[0]?.buffer).toBe(blob.buffer);
      }),
      { numRuns: 50 },
    );
  });

  it('reports a partial trailing batch separately, wherever the blob is cut', () => {
    fc.assert(
      fc.property(batchesArbitrary, fc.nat(), (batches, cutSeed) => {
        const blob = Buffer.concat(batches);
        const cut = cutSeed % blob.length;
        const split = splitBatches(blob.subarray(0, cut));
        if (!split.ok) throw split.error;
        let completeBytes = 0;
        let completeCount = 0;
        for (const batch of batches) {
          if (completeBytes + batch.length > cut) break;
          completeBytes += batch.length;
          completeCount++;
        }
        expect(split.value.batches).toHaveLength(completeCount);
        const tail = split.value.partialTail;
        if (cut === completeBytes) expect(tail).toBeNull();
        else expect(tail?.toString('hex')).toBe(blob.subarray(completeBytes, cut).toString('hex'));
      }),
      { numRuns: 200 },
    );
  });

  it('handles an empty blob', () => {
    expect(splitBatches(Buffer.alloc(0))).toEqual({ ok: true, value: { batches: [], partialTail: null } });
  });

  it('fails on a batch length below the header size, keeping what came before in the iterator', () => {
    const first = encodeRecordBatch({ records: [{ value: Buffer.from('x'), timestampMs: 1 }] });
    const broken = Buffer.from(first);
    broken.writeInt32BE(10, BatchLayout.batchLength);
    const blob = Buffer.concat([first, broken]);
    const split = splitBatches(blob);
    expect(!split.ok && split.error.kind).toBe('invalid-length');
    const items = [...iterateBatches(blob)];
    expect(items.map((item) => [item.kind, item.position])).toEqual([
      ['batch', 0],
      ['invalid', first.length],
    ]);
  });
});
