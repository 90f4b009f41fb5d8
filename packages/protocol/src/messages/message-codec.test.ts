import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbitraryForStruct } from '../../test/schema-arbitrary';
import { type DeferredBytes, isDeferredBytes } from '../codec/deferred-bytes';
import { Fetch } from './apis/fetch';
import { Produce } from './apis/produce';
import {
  decodeRequestFrame,
  decodeResponseFrame,
  encodeRequestFrame,
  encodeRequestFrameParts,
  encodeResponseFrame,
  encodeResponseFrameParts,
} from './message-codec';
import { ALL_APIS, apiByKey } from './registry';

const cases = ALL_APIS.flatMap((api) =>
  Array.from({ length: api.versions.max - api.versions.min + 1 }, (_, index) => ({
    api,
    version: api.versions.min + index,
  })),
);

describe.each(cases)('$api.name v$version', ({ api, version }) => {
  it('round-trips random requests', () => {
    fc.assert(
      fc.property(
        arbitraryForStruct(api.request, version),
        fc.integer({ min: -2147483648, max: 2147483647 }),
        fc.option(fc.string({ maxLength: 10 }), { nil: null }),
        (body, correlationId, clientId) => {
          const frame = encodeRequestFrame(api, version, correlationId, clientId, body as never);
          expect(frame.readInt32BE(0)).toBe(frame.length - 4);
          const decoded = decodeRequestFrame(frame.subarray(4), apiByKey);
          if (!decoded.ok) throw decoded.error;
          expect(decoded.header).toEqual({
            apiKey: api.apiKey,
            apiVersion: version,
            correlationId,
            clientId,
          });
          expect(decoded.body).toEqual(body);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('round-trips random responses', () => {
    fc.assert(
      fc.property(
        arbitraryForStruct(api.response, version),
        fc.integer({ min: -2147483648, max: 2147483647 }),
        (body, correlationId) => {
          const frame = encodeResponseFrame(api, version, correlationId, body as never);
          const decoded = decodeResponseFrame(api, version, frame.subarray(4));
          if (!decoded.ok) throw decoded.error;
          expect(decoded.value.correlationId).toBe(correlationId);
          expect(decoded.value.body).toEqual(body);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('turns every truncation of a request into a decode error', () => {
    fc.assert(
      fc.property(arbitraryForStruct(api.request, version), (body) => {
        const frame = encodeRequestFrame(api, version, 7, 'weir', body as never).subarray(4);
        for (let length = 0; length < frame.length; length++) {
          const decoded = decodeRequestFrame(frame.subarray(0, length), apiByKey);
          expect(decoded.ok).toBe(false);
        }
      }),
      { numRuns: 10 },
    );
  });
});

describe('frames as parts', () => {
  const large = Buffer.alloc(64 * 1024, 7);
  const small = Buffer.alloc(100, 3);

  it('concatenate to the same Produce request, with large record sets referenced, not copied', () => {
    const body = {
      transactionalId: null,
      acks: 1,
      timeoutMs: 1000,
      topicData: [
        {
          name: 't',
          partitionData: [
            { index: 0, records: large },
            { index: 1, records: small },
            { index: 2, records: large },
          ],
        },
      ],
    };
    const parts = encodeRequestFrameParts(Produce, 7, 9, 'c', body);
    expect(Buffer.concat(parts)).toEqual(encodeRequestFrame(Produce, 7, 9, 'c', body));
    expect(parts.filter((part) => part === large)).toHaveLength(2);
  });

  it('concatenate to the same Fetch response', () => {
    const partition = (partitionIndex: number, records: Buffer | null) => ({
      partitionIndex,
      errorCode: 0,
      highWatermark: 10n,
      lastStableOffset: 10n,
      logStartOffset: 0n,
      abortedTransactions: null,
      preferredReadReplica: -1,
      records,
    });
    const body = {
      throttleTimeMs: 0,
      errorCode: 0,
      sessionId: 0,
      responses: [{ topic: 't', partitions: [partition(0, large), partition(1, null), partition(2, small)] }],
    };
    const parts = encodeResponseFrameParts(Fetch, 11, 5, body);
    expect(parts.some(isDeferredBytes)).toBe(false);
    expect(Buffer.concat(parts as Uint8Array[])).toEqual(encodeResponseFrame(Fetch, 11, 5, body));
    expect(parts).toContain(large);
  });

  it('leaves deferred record sets as parts of their own, whatever their size, and sizes the frame with them', async () => {
    const stored = Buffer.from('0123456789abcdef'.repeat(3));
    const deferred: DeferredBytes = {
      deferred: true,
      length: stored.length,
      read: async (fromByte, maxBytes) => stored.subarray(fromByte, fromByte + maxBytes),
      release: () => {},
    };
    const partition = (index: number, records: Buffer | DeferredBytes) => ({
      partitionIndex: index,
      errorCode: 0,
      highWatermark: 1n,
      lastStableOffset: 1n,
      logStartOffset: 0n,
      abortedTransactions: null,
      preferredReadReplica: -1,
      records,
    });
    const body = (records: Buffer | DeferredBytes) => ({
      throttleTimeMs: 0,
      errorCode: 0,
      sessionId: 0,
      responses: [{ topic: 't', partitions: [partition(0, records)] }],
    });
    for (const version of [4, 11]) {
      const parts = encodeResponseFrameParts(Fetch, version, 5, body(deferred));
      expect(parts.filter(isDeferredBytes)).toEqual([deferred]);
      const written = Buffer.concat(
        await Promise.all(parts.map((part) => (isDeferredBytes(part) ? part.read(0, part.length) : part))),
      );
      expect(written).toEqual(encodeResponseFrame(Fetch, version, 5, body(stored)));
      expect(() => encodeResponseFrame(Fetch, version, 5, body(deferred))).toThrow(/frame parts/);
    }
  });
});
