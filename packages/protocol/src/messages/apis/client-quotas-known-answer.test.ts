import { describe, expect, it } from 'vitest';
import {
  bytes,
  compactCount,
  compactStr,
  count,
  f64,
  i8,
  i16,
  i32,
  noTags,
  requestV1,
  requestV2,
  responseV0,
  responseV1,
  sized,
  str,
} from '../../../test/hand-assembled-frames';
import {
  decodeRequestFrame,
  decodeResponseFrame,
  encodeRequestFrame,
  encodeResponseFrame,
} from '../message-codec';
import { apiByKey } from '../registry';
import { AlterClientQuotas } from './alter-client-quotas';
import { DescribeClientQuotas } from './describe-client-quotas';

/**
 * Known-answer tests for the client quota APIs (KIP-546), which kafkajs does not implement: each
 * frame is assembled by hand from Kafka's message definitions, decoded by our codec and compared
 * field by field, and our encoding of the same values must reproduce it byte for byte.
 */

function expectRequest(frame: Buffer, header: object, body: unknown) {
  const decoded = decodeRequestFrame(frame, apiByKey);
  if (!decoded.ok) throw decoded.error;
  expect(decoded.header).toEqual(header);
  expect(decoded.body).toEqual(body);
}

describe('DescribeClientQuotas', () => {
  const requestBody = {
    components: [
      { entityType: 'user', matchType: 0, match: 'alice' },
      { entityType: 'client-id', matchType: 1, match: null },
    ],
    strict: true,
  };
  const responseBody = {
    throttleTimeMs: 0,
    errorCode: 0,
    errorMessage: null,
    entries: [
      {
        entity: [
          { entityType: 'user', entityName: 'alice' },
          { entityType: 'client-id', entityName: null },
        ],
        values: [{ key: 'producer_byte_rate', value: 1048576 }],
      },
    ],
  };

  it('v0: decodes and encodes the hand-assembled request and response', () => {
    const request = requestV1(
      48,
      0,
      7,
      'admin',
      bytes(count(2), str('user'), i8(0), str('alice'), str('client-id'), i8(1), str(null), i8(1)),
    );
    expectRequest(request, { apiKey: 48, apiVersion: 0, correlationId: 7, clientId: 'admin' }, requestBody);
    expect(encodeRequestFrame(DescribeClientQuotas, 0, 7, 'admin', requestBody)).toEqual(sized(request));

    const response = responseV0(
      7,
      bytes(
        i32(0),
        i16(0),
        str(null),
        count(1),
        count(2),
        str('user'),
        str('alice'),
        str('client-id'),
        str(null),
        count(1),
        str('producer_byte_rate'),
        f64(1048576),
      ),
    );
    const decoded = decodeResponseFrame(DescribeClientQuotas, 0, response);
    if (!decoded.ok) throw decoded.error;
    expect(decoded.value).toEqual({ correlationId: 7, body: responseBody });
    expect(encodeResponseFrame(DescribeClientQuotas, 0, 7, responseBody)).toEqual(sized(response));
  });

  it('v1 (flexible): decodes and encodes the hand-assembled request and response', () => {
    const request = requestV2(
      48,
      1,
      8,
      'admin',
      bytes(
        compactCount(2),
        compactStr('user'),
        i8(0),
        compactStr('alice'),
        noTags,
        compactStr('client-id'),
        i8(1),
        compactStr(null),
        noTags,
        i8(1),
        noTags,
      ),
    );
    expectRequest(request, { apiKey: 48, apiVersion: 1, correlationId: 8, clientId: 'admin' }, requestBody);
    expect(encodeRequestFrame(DescribeClientQuotas, 1, 8, 'admin', requestBody)).toEqual(sized(request));

    // An error answer has null entries: a nullable compact array is written as 0.
    const errorBody = { throttleTimeMs: 5, errorCode: 42, errorMessage: 'bad filter', entries: null };
    const response = responseV1(
      8,
      bytes(i32(5), i16(42), compactStr('bad filter'), compactCount(-1), noTags),
    );
    const decoded = decodeResponseFrame(DescribeClientQuotas, 1, response);
    if (!decoded.ok) throw decoded.error;
    expect(decoded.value).toEqual({ correlationId: 8, body: errorBody });
    expect(encodeResponseFrame(DescribeClientQuotas, 1, 8, errorBody)).toEqual(sized(response));
  });
});

describe('AlterClientQuotas', () => {
  const requestBody = {
    entries: [
      {
        entity: [{ entityType: 'client-id', entityName: 'loader' }],
        ops: [
          { key: 'producer_byte_rate', value: 2048, remove: false },
          { key: 'request_percentage', value: 0, remove: true },
        ],
      },
    ],
    validateOnly: false,
  };
  const responseBody = {
    throttleTimeMs: 0,
    entries: [
      { errorCode: 0, errorMessage: null, entity: [{ entityType: 'client-id', entityName: 'loader' }] },
    ],
  };

  it('v0: decodes and encodes the hand-assembled request and response', () => {
    const request = requestV1(
      49,
      0,
      9,
      'admin',
      bytes(
        count(1),
        count(1),
        str('client-id'),
        str('loader'),
        count(2),
        str('producer_byte_rate'),
        f64(2048),
        i8(0),
        str('request_percentage'),
        f64(0),
        i8(1),
        i8(0),
      ),
    );
    expectRequest(request, { apiKey: 49, apiVersion: 0, correlationId: 9, clientId: 'admin' }, requestBody);
    expect(encodeRequestFrame(AlterClientQuotas, 0, 9, 'admin', requestBody)).toEqual(sized(request));

    const response = responseV0(
      9,
      bytes(i32(0), count(1), i16(0), str(null), count(1), str('client-id'), str('loader')),
    );
    const decoded = decodeResponseFrame(AlterClientQuotas, 0, response);
    if (!decoded.ok) throw decoded.error;
    expect(decoded.value).toEqual({ correlationId: 9, body: responseBody });
    expect(encodeResponseFrame(AlterClientQuotas, 0, 9, responseBody)).toEqual(sized(response));
  });

  it('v1 (flexible): decodes and encodes the hand-assembled response', () => {
    const response = responseV1(
      10,
      bytes(
        i32(0),
        compactCount(1),
        i16(0),
        compactStr(null),
        compactCount(1),
        compactStr('client-id'),
        compactStr('loader'),
        noTags,
        noTags,
        noTags,
      ),
    );
    const decoded = decodeResponseFrame(AlterClientQuotas, 1, response);
    if (!decoded.ok) throw decoded.error;
    expect(decoded.value).toEqual({ correlationId: 10, body: responseBody });
    expect(encodeResponseFrame(AlterClientQuotas, 1, 10, responseBody)).toEqual(sized(response));
  });
});
