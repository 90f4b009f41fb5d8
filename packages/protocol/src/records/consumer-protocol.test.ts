import { describe, expect, it } from 'vitest';
import {
  decodeConsumerAssignment,
  decodeConsumerSubscription,
  encodeConsumerAssignment,
  encodeConsumerSubscription,
} from './consumer-protocol';

describe('consumer protocol', () => {
  it('round-trips subscriptions v0 and v1 and assignments', () => {
    const v1 = {
      version: 1,
      topics: ['a', 'b'],
      userData: Buffer.from([1, 2]),
      ownedPartitions: [{ topic: 'a', partitions: [0, 3] }],
    };
    expect(decodeConsumerSubscription(encodeConsumerSubscription(v1))).toEqual(v1);
    const v0 = { version: 0, topics: ['a'], userData: null, ownedPartitions: [] };
    expect(decodeConsumerSubscription(encodeConsumerSubscription(v0))).toEqual(v0);
    const assignment = { version: 1, partitions: [{ topic: 'a', partitions: [1, 2] }], userData: null };
    expect(decodeConsumerAssignment(encodeConsumerAssignment(assignment))).toEqual(assignment);
  });

  it('reads an empty assignment as no partitions and junk as undefined', () => {
    expect(decodeConsumerAssignment(new Uint8Array())).toEqual({
      version: 0,
      partitions: [],
      userData: null,
    });
    expect(decodeConsumerSubscription(Uint8Array.from([0, 0, 0, 0, 0, 9]))).toBeUndefined();
  });
});
