import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbitraryForStruct } from '../../test/schema-arbitrary';
import {
  decodeRequestFrame,
  decodeResponseFrame,
  encodeRequestFrame,
  encodeResponseFrame,
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
