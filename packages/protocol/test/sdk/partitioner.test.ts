import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { murmur2, partitionForKey, StickyPartitioner } from '../../src/client/partitioner';

const require = createRequire(import.meta.url);
/** kafkajs 2.2.4's murmur2 and DefaultPartitioner (internals, pinned by the exact dev dependency). */
const kafkajsMurmur2 = require('kafkajs/src/producer/partitioners/default/murmur2') as (
  key: Buffer,
) => number;
const { DefaultPartitioner } = (
  require('kafkajs') as {
    Partitioners: {
      DefaultPartitioner: () => (input: {
        topic: string;
        partitionMetadata: { partitionId: number; leader: number }[];
        message: { key: Buffer };
      }) => number;
    };
  }
).Partitioners;

describe('murmur2', () => {
  it("matches the Java client's known answers (Kafka's UtilsTest)", () => {
    const cases: [string, number][] = [
      ['21', -973932308],
      ['foobar', -790332482],
      ['a-little-bit-long-string', -985981536],
      ['a-little-bit-longer-string', -1486304829],
      ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
      ['abc', 479470107],
    ];
    for (const [key, hash] of cases) expect(murmur2(Buffer.from(key))).toBe(hash);
  });

  it("matches kafkajs's murmur2 for 1,000 random keys", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 100 }), (key) => {
        expect(murmur2(key)).toBe(kafkajsMurmur2(Buffer.from(key)));
      }),
      { numRuns: 1000, seed: 42 },
    );
  });

  it("places 1,000 random keys where kafkajs's DefaultPartitioner does", () => {
    const kafkajs = DefaultPartitioner();
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 0, maxLength: 64 }),
        fc.integer({ min: 1, max: 100 }),
        (key, count) => {
          const partitionMetadata = Array.from({ length: count }, (_, partitionId) => ({
            partitionId,
            leader: 0,
          }));
          const expected = kafkajs({ topic: 't', partitionMetadata, message: { key: Buffer.from(key) } });
          expect(partitionForKey(key, count)).toBe(expected);
        },
      ),
      { numRuns: 1000, seed: 7 },
    );
  });

  it('refuses a partition count below 1', () => {
    expect(() => partitionForKey(Buffer.from('k'), 0)).toThrow(RangeError);
  });
});

describe('StickyPartitioner', () => {
  it('keeps one partition until its batch closes, then moves to another', () => {
    const sticky = new StickyPartitioner(Math.random);
    const first = sticky.partition('t', 4, [0, 1, 2, 3]);
    for (let index = 0; index < 20; index++) expect(sticky.partition('t', 4, [0, 1, 2, 3])).toBe(first);
    sticky.onBatchClosed('t', (first + 1) % 4);
    expect(sticky.partition('t', 4, [0, 1, 2, 3])).toBe(first);
    sticky.onBatchClosed('t', first);
    const second = sticky.partition('t', 4, [0, 1, 2, 3]);
    expect(second).not.toBe(first);
  });

  it('chooses among partitions with a leader, and per topic', () => {
    let next = 0;
    const sticky = new StickyPartitioner(() => (next++ % 10) / 10);
    for (let round = 0; round < 50; round++) {
      const partition = sticky.partition('a', 6, [1, 4]);
      expect([1, 4]).toContain(partition);
      sticky.onBatchClosed('a', partition);
    }
    const a = sticky.partition('a', 6, [1, 4]);
    sticky.partition('b', 6, [0, 1, 2, 3, 4, 5]);
    expect(sticky.partition('a', 6, [1, 4])).toBe(a);
  });
});
