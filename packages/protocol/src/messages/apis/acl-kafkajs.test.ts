import { describe, expect, it } from 'vitest';
import { decodeWithKafkajs, encodeWithKafkajs, kafkajsRequest } from '../../../test/kafkajs-interop';
import { decodeRequestFrame, encodeResponseFrame } from '../message-codec';
import { apiByKey } from '../registry';
import { CreateAcls } from './create-acls';
import { DeleteAcls } from './delete-acls';
import { DescribeAcls } from './describe-acls';

/** Decodes a kafkajs-encoded request frame with our codec, failing the test on a decode error. */
function decodeOurs(frame: Buffer) {
  expect(frame.readInt32BE(0)).toBe(frame.length - 4);
  const decoded = decodeRequestFrame(frame.subarray(4), apiByKey);
  if (!decoded.ok) throw decoded.error;
  return decoded;
}

// Enum values as Kafka numbers them: resource type TOPIC 2, GROUP 3; pattern type LITERAL 3,
// PREFIXED 4; operation ALL 2, READ 3, WRITE 4; permission DENY 2, ALLOW 3.
const PREFIXED = 4;
const LITERAL = 3;

describe('kafkajs requests decode with our codec', () => {
  it.each([0, 1])('DescribeAcls v%i with every filter set', async (version) => {
    const frame = await encodeWithKafkajs(
      kafkajsRequest(
        'describeAcls',
        version,
      )({
        resourceType: 2,
        resourceName: 'orders',
        resourcePatternType: PREFIXED,
        principal: 'User:alice',
        host: '10.0.0.1',
        operation: 2,
        permissionType: 3,
      }),
    );
    const decoded = decodeOurs(frame);
    expect(decoded.header).toMatchObject({ apiKey: 29, apiVersion: version });
    expect(decoded.body).toEqual({
      resourceTypeFilter: 2,
      resourceNameFilter: 'orders',
      // v0 has no pattern type; it decodes to Kafka's default, LITERAL.
      patternTypeFilter: version >= 1 ? PREFIXED : LITERAL,
      principalFilter: 'User:alice',
      hostFilter: '10.0.0.1',
      operation: 2,
      permissionType: 3,
    });
  });

  it.each([0, 1])('DescribeAcls v%i with null (match-any) filters', async (version) => {
    const frame = await encodeWithKafkajs(
      kafkajsRequest(
        'describeAcls',
        version,
      )({
        resourceType: 1,
        resourceName: null,
        resourcePatternType: 1,
        principal: null,
        host: null,
        operation: 1,
        permissionType: 1,
      }),
    );
    expect(decodeOurs(frame).body).toEqual({
      resourceTypeFilter: 1,
      resourceNameFilter: null,
      patternTypeFilter: version >= 1 ? 1 : LITERAL,
      principalFilter: null,
      hostFilter: null,
      operation: 1,
      permissionType: 1,
    });
  });

  it.each([0, 1])('CreateAcls v%i', async (version) => {
    const frame = await encodeWithKafkajs(
      kafkajsRequest(
        'createAcls',
        version,
      )({
        creations: [
          {
            resourceType: 2,
            resourceName: 'orders',
            resourcePatternType: PREFIXED,
            principal: 'User:alice',
            host: '*',
            operation: 4,
            permissionType: 3,
          },
          {
            resourceType: 3,
            resourceName: 'billing',
            resourcePatternType: LITERAL,
            principal: 'User:bob',
            host: '10.0.0.2',
            operation: 3,
            permissionType: 2,
          },
        ],
      }),
    );
    const decoded = decodeOurs(frame);
    expect(decoded.header).toMatchObject({ apiKey: 30, apiVersion: version });
    expect(decoded.body).toEqual({
      creations: [
        {
          resourceType: 2,
          resourceName: 'orders',
          resourcePatternType: version >= 1 ? PREFIXED : LITERAL,
          principal: 'User:alice',
          host: '*',
          operation: 4,
          permissionType: 3,
        },
        {
          resourceType: 3,
          resourceName: 'billing',
          resourcePatternType: LITERAL,
          principal: 'User:bob',
          host: '10.0.0.2',
          operation: 3,
          permissionType: 2,
        },
      ],
    });
  });

  it.each([0, 1])('DeleteAcls v%i', async (version) => {
    const frame = await encodeWithKafkajs(
      kafkajsRequest(
        'deleteAcls',
        version,
      )({
        filters: [
          {
            resourceType: 2,
            resourceName: 'orders',
            resourcePatternType: PREFIXED,
            principal: 'User:alice',
            host: '*',
            operation: 4,
            permissionType: 3,
          },
          {
            resourceType: 1,
            resourceName: null,
            resourcePatternType: 1,
            principal: null,
            host: null,
            operation: 1,
            permissionType: 1,
          },
        ],
      }),
    );
    const decoded = decodeOurs(frame);
    expect(decoded.header).toMatchObject({ apiKey: 31, apiVersion: version });
    expect(decoded.body).toEqual({
      filters: [
        {
          resourceTypeFilter: 2,
          resourceNameFilter: 'orders',
          patternTypeFilter: version >= 1 ? PREFIXED : LITERAL,
          principalFilter: 'User:alice',
          hostFilter: '*',
          operation: 4,
          permissionType: 3,
        },
        {
          resourceTypeFilter: 1,
          resourceNameFilter: null,
          patternTypeFilter: version >= 1 ? 1 : LITERAL,
          principalFilter: null,
          hostFilter: null,
          operation: 1,
          permissionType: 1,
        },
      ],
    });
  });
});

describe('our responses decode with kafkajs', () => {
  it.each([0, 1])('DescribeAcls v%i', async (version) => {
    const frame = encodeResponseFrame(DescribeAcls, version, 13, {
      throttleTimeMs: 25,
      errorCode: 0,
      errorMessage: null,
      resources: [
        {
          resourceType: 2,
          resourceName: 'orders',
          patternType: PREFIXED,
          acls: [
            { principal: 'User:alice', host: '*', operation: 4, permissionType: 3 },
            { principal: 'User:bob', host: '10.0.0.2', operation: 3, permissionType: 2 },
          ],
        },
      ],
    });
    const decoded = await decodeWithKafkajs('describeAcls', version, frame);
    expect(decoded).toEqual({
      throttleTime: version === 0 ? 25 : 0,
      ...(version === 1 ? { clientSideThrottleTime: 25 } : {}),
      errorCode: 0,
      errorMessage: null,
      resources: [
        {
          resourceType: 2,
          resourceName: 'orders',
          ...(version === 1 ? { resourcePatternType: PREFIXED } : {}),
          acls: [
            { principal: 'User:alice', host: '*', operation: 4, permissionType: 3 },
            { principal: 'User:bob', host: '10.0.0.2', operation: 3, permissionType: 2 },
          ],
        },
      ],
    });
  });

  it.each([0, 1])('DescribeAcls v%i with an error', async (version) => {
    const frame = encodeResponseFrame(DescribeAcls, version, 13, {
      throttleTimeMs: 0,
      errorCode: 31,
      errorMessage: 'cluster authorization failed',
      resources: [],
    });
    const decoded = await decodeWithKafkajs('describeAcls', version, frame);
    expect(decoded).toMatchObject({
      errorCode: 31,
      errorMessage: 'cluster authorization failed',
      resources: [],
    });
  });

  it.each([0, 1])('CreateAcls v%i', async (version) => {
    const frame = encodeResponseFrame(CreateAcls, version, 13, {
      throttleTimeMs: 25,
      results: [
        { errorCode: 0, errorMessage: null },
        { errorCode: 42, errorMessage: 'bad principal' },
      ],
    });
    const decoded = await decodeWithKafkajs('createAcls', version, frame);
    expect(decoded).toEqual({
      throttleTime: version === 0 ? 25 : 0,
      ...(version === 1 ? { clientSideThrottleTime: 25 } : {}),
      creationResponses: [
        { errorCode: 0, errorMessage: null },
        { errorCode: 42, errorMessage: 'bad principal' },
      ],
    });
  });

  it.each([0, 1])('DeleteAcls v%i', async (version) => {
    const frame = encodeResponseFrame(DeleteAcls, version, 13, {
      throttleTimeMs: 25,
      filterResults: [
        {
          errorCode: 0,
          errorMessage: null,
          matchingAcls: [
            {
              errorCode: 0,
              errorMessage: null,
              resourceType: 2,
              resourceName: 'orders',
              patternType: PREFIXED,
              principal: 'User:alice',
              host: '*',
              operation: 4,
              permissionType: 3,
            },
          ],
        },
        { errorCode: 42, errorMessage: 'bad filter', matchingAcls: [] },
      ],
    });
    const decoded = await decodeWithKafkajs('deleteAcls', version, frame);
    expect(decoded).toEqual({
      throttleTime: version === 0 ? 25 : 0,
      ...(version === 1 ? { clientSideThrottleTime: 25 } : {}),
      filterResponses: [
        {
          errorCode: 0,
          errorMessage: null,
          matchingAcls: [
            {
              errorCode: 0,
              errorMessage: null,
              resourceType: 2,
              resourceName: 'orders',
              ...(version === 1 ? { resourcePatternType: PREFIXED } : {}),
              principal: 'User:alice',
              host: '*',
              operation: 4,
              permissionType: 3,
            },
          ],
        },
        { errorCode: 42, errorMessage: 'bad filter', matchingAcls: [] },
      ],
    });
  });
});
