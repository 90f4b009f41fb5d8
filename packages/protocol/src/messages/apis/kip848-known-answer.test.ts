import { describe, expect, it } from 'vitest';
import type { ApiSchema, RequestOf, ResponseInputOf, ResponseOf } from '../../schema/api';
import {
  decodeRequestFrame,
  decodeResponseFrame,
  encodeRequestFrame,
  encodeResponseFrame,
} from '../message-codec';
import { apiByKey } from '../registry';
import { ConsumerGroupDescribe } from './consumer-group-describe';
import { ConsumerGroupHeartbeat } from './consumer-group-heartbeat';
import { Metadata } from './metadata';
import { OffsetCommit } from './offset-commit';

/**
 * Known-answer tests for the flexible versions the consumer group protocol (KIP-848) needs:
 * ConsumerGroupHeartbeat v0, ConsumerGroupDescribe v0, OffsetCommit v9 and Metadata v10/v12. Each
 * wire vector is assembled by hand from the layout in Apache Kafka's message definitions, with
 * helpers that share nothing with our codec (compact lengths are length + 1 as an unsigned varint,
 * every struct ends with an empty tagged-field section); ours must decode it to the expected value
 * and encode that value back to the same bytes.
 */

const i8 = (value: number) => {
  const out = Buffer.alloc(1);
  out.writeInt8(value);
  return out;
};
const i16 = (value: number) => {
  const out = Buffer.alloc(2);
  out.writeInt16BE(value);
  return out;
};
const i32 = (value: number) => {
  const out = Buffer.alloc(4);
  out.writeInt32BE(value);
  return out;
};
const i64 = (value: bigint) => {
  const out = Buffer.alloc(8);
  out.writeBigInt64BE(value);
  return out;
};
const bool = (value: boolean) => i8(value ? 1 : 0);
/** Unsigned varint, 7 bits a byte, low group first. */
const uvarint = (value: number) => {
  const out: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest & 0x7f) | 0x80);
    rest >>>= 7;
  }
  out.push(rest);
  return Buffer.from(out);
};
/** COMPACT_STRING / COMPACT_NULLABLE_STRING: uvarint(length + 1), 0 for null. */
const cstr = (value: string | null) =>
  value === null
    ? uvarint(0)
    : Buffer.concat([uvarint(Buffer.byteLength(value) + 1), Buffer.from(value, 'utf8')]);
/** COMPACT_ARRAY / nullable: uvarint(count + 1), 0 for null. */
const carr = (items: Buffer[] | null) =>
  items === null ? uvarint(0) : Buffer.concat([uvarint(items.length + 1), ...items]);
/** A non-compact STRING (the request header's client id stays one in header v2). */
const str = (value: string) => Buffer.concat([i16(Buffer.byteLength(value)), Buffer.from(value, 'utf8')]);
const uuidBytes = (value: string) => Buffer.from(value.replaceAll('-', ''), 'hex');
/** An empty tagged-field section. */
const TAGS = Buffer.from([0]);
const cat = (...parts: Buffer[]) => Buffer.concat(parts);

const CORRELATION_ID = 0x0a0b0c0d;
const CLIENT_ID = 'kat';
const TOPIC_A = '0b7c1a2e-3f4d-4e5f-8a6b-7c8d9eafb0c1';
const TOPIC_B = 'f1e2d3c4-b5a6-4978-8695-a4b3c2d1e0f9';

function expectRequest<A extends ApiSchema>(api: A, version: number, value: RequestOf<A>, body: Buffer) {
  // Request header v2: api_key, api_version, correlation_id, client_id (STRING), tags.
  const header = cat(i16(api.apiKey), i16(version), i32(CORRELATION_ID), str(CLIENT_ID), TAGS);
  const frame = cat(i32(header.length + body.length), header, body);
  expect(encodeRequestFrame(api, version, CORRELATION_ID, CLIENT_ID, value).toString('hex')).toBe(
    frame.toString('hex'),
  );
  const decoded = decodeRequestFrame(frame.subarray(4), apiByKey);
  if (!decoded.ok) throw decoded.error;
  expect(decoded.header).toEqual({
    apiKey: api.apiKey,
    apiVersion: version,
    correlationId: CORRELATION_ID,
    clientId: CLIENT_ID,
  });
  expect(decoded.body).toEqual(value);
}

function expectResponse<A extends ApiSchema>(api: A, version: number, value: ResponseOf<A>, body: Buffer) {
  // Response header v1: correlation_id, tags.
  const frame = cat(i32(5 + body.length), i32(CORRELATION_ID), TAGS, body);
  expect(encodeResponseFrame(api, version, CORRELATION_ID, value as ResponseInputOf<A>).toString('hex')).toBe(
    frame.toString('hex'),
  );
  const decoded = decodeResponseFrame(api, version, frame.subarray(4));
  if (!decoded.ok) throw decoded.error;
  expect(decoded.value.body).toEqual(value);
}

describe('ConsumerGroupHeartbeat v0 known answers', () => {
  it('a join: epoch 0, every optional field set, an empty owned-partition list', () => {
    expectRequest(
      ConsumerGroupHeartbeat,
      0,
      {
        groupId: 'g',
        memberId: '',
        memberEpoch: 0,
        instanceId: 'i-1',
        rackId: 'r',
        rebalanceTimeoutMs: 30000,
        subscribedTopicNames: ['alpha', 'beta'],
        serverAssignor: 'range',
        topicPartitions: [],
      },
      cat(
        cstr('g'),
        cstr(''),
        i32(0),
        cstr('i-1'),
        cstr('r'),
        i32(30000),
        carr([cstr('alpha'), cstr('beta')]),
        cstr('range'),
        carr([]),
        TAGS,
      ),
    );
  });

  it('a steady heartbeat: the unchanged fields null, owned partitions by topic id', () => {
    expectRequest(
      ConsumerGroupHeartbeat,
      0,
      {
        groupId: 'g',
        memberId: 'm-1',
        memberEpoch: 7,
        instanceId: null,
        rackId: null,
        rebalanceTimeoutMs: -1,
        subscribedTopicNames: null,
        serverAssignor: null,
        topicPartitions: [{ topicId: TOPIC_A, partitions: [2, 0] }],
      },
      cat(
        cstr('g'),
        cstr('m-1'),
        i32(7),
        cstr(null),
        cstr(null),
        i32(-1),
        carr(null),
        cstr(null),
        carr([cat(uuidBytes(TOPIC_A), carr([i32(2), i32(0)]), TAGS)]),
        TAGS,
      ),
    );
  });

  it('response with an assignment (a nullable struct: presence byte 1)', () => {
    expectResponse(
      ConsumerGroupHeartbeat,
      0,
      {
        throttleTimeMs: 3,
        errorCode: 0,
        errorMessage: null,
        memberId: 'm-1',
        memberEpoch: 8,
        heartbeatIntervalMs: 5000,
        assignment: {
          topicPartitions: [
            { topicId: TOPIC_A, partitions: [1] },
            { topicId: TOPIC_B, partitions: [] },
          ],
        },
      },
      cat(
        i32(3),
        i16(0),
        cstr(null),
        cstr('m-1'),
        i32(8),
        i32(5000),
        i8(1),
        carr([cat(uuidBytes(TOPIC_A), carr([i32(1)]), TAGS), cat(uuidBytes(TOPIC_B), carr([]), TAGS)]),
        TAGS,
        TAGS,
      ),
    );
  });

  it('error response without an assignment (presence byte -1)', () => {
    expectResponse(
      ConsumerGroupHeartbeat,
      0,
      {
        throttleTimeMs: 0,
        errorCode: 110,
        errorMessage: 'fenced',
        memberId: null,
        memberEpoch: -1,
        heartbeatIntervalMs: 0,
        assignment: null,
      },
      cat(i32(0), i16(110), cstr('fenced'), cstr(null), i32(-1), i32(0), i8(-1), TAGS),
    );
  });
});

describe('ConsumerGroupDescribe v0 known answers', () => {
  it('request: group ids, then whether to include authorized operations', () => {
    expectRequest(
      ConsumerGroupDescribe,
      0,
      { groupIds: ['g1', 'g2'], includeAuthorizedOperations: true },
      cat(carr([cstr('g1'), cstr('g2')]), bool(true), TAGS),
    );
  });

  it('response: epochs and assignor, then members with current and target assignments', () => {
    const assignmentOf = (partitions: number[]) =>
      cat(carr([cat(uuidBytes(TOPIC_A), cstr('alpha'), carr(partitions.map(i32)), TAGS)]), TAGS);
    expectResponse(
      ConsumerGroupDescribe,
      0,
      {
        throttleTimeMs: 0,
        groups: [
          {
            errorCode: 0,
            errorMessage: null,
            groupId: 'g1',
            groupState: 'Reconciling',
            groupEpoch: 5,
            assignmentEpoch: 4,
            assignorName: 'uniform',
            members: [
              {
                memberId: 'm-1',
                instanceId: null,
                rackId: 'r1',
                memberEpoch: 3,
                clientId: 'c',
                clientHost: '/127.0.0.1',
                subscribedTopicNames: ['alpha'],
                subscribedTopicRegex: null,
                assignment: {
                  topicPartitions: [{ topicId: TOPIC_A, topicName: 'alpha', partitions: [0, 1] }],
                },
                targetAssignment: {
                  topicPartitions: [{ topicId: TOPIC_A, topicName: 'alpha', partitions: [0] }],
                },
              },
            ],
            authorizedOperations: -2147483648,
          },
        ],
      },
      cat(
        i32(0),
        carr([
          cat(
            i16(0),
            cstr(null),
            cstr('g1'),
            cstr('Reconciling'),
            i32(5),
            i32(4),
            cstr('uniform'),
            carr([
              cat(
                cstr('m-1'),
                cstr(null),
                cstr('r1'),
                i32(3),
                cstr('c'),
                cstr('/127.0.0.1'),
                carr([cstr('alpha')]),
                cstr(null),
                assignmentOf([0, 1]),
                assignmentOf([0]),
                TAGS,
              ),
            ]),
            i32(-2147483648),
            TAGS,
          ),
        ]),
        TAGS,
      ),
    );
  });
});

describe('OffsetCommit v9 known answers', () => {
  it('request: the member epoch in the generation field, compact strings, tags per struct', () => {
    expectRequest(
      OffsetCommit,
      9,
      {
        groupId: 'g',
        generationIdOrMemberEpoch: 12,
        memberId: 'm-1',
        groupInstanceId: null,
        retentionTimeMs: -1n,
        topics: [
          {
            name: 'alpha',
            partitions: [
              {
                partitionIndex: 1,
                committedOffset: 42n,
                committedLeaderEpoch: 6,
                commitTimestampMs: -1n,
                committedMetadata: null,
              },
            ],
          },
        ],
      },
      cat(
        cstr('g'),
        i32(12),
        cstr('m-1'),
        cstr(null),
        carr([cat(cstr('alpha'), carr([cat(i32(1), i64(42n), i32(6), cstr(null), TAGS)]), TAGS)]),
        TAGS,
      ),
    );
  });

  it('response: throttle time, then topics of partition errors', () => {
    expectResponse(
      OffsetCommit,
      9,
      { throttleTimeMs: 1, topics: [{ name: 'alpha', partitions: [{ partitionIndex: 1, errorCode: 113 }] }] },
      cat(i32(1), carr([cat(cstr('alpha'), carr([cat(i32(1), i16(113), TAGS)]), TAGS)]), TAGS),
    );
  });
});

describe('Metadata v10 and v12 known answers', () => {
  it('v12 request: topics by id with a null name, no cluster authorized operations flag', () => {
    expectRequest(
      Metadata,
      12,
      {
        topics: [{ topicId: TOPIC_A, name: null }],
        allowAutoTopicCreation: false,
        includeClusterAuthorizedOperations: false,
        includeTopicAuthorizedOperations: true,
      },
      cat(carr([cat(uuidBytes(TOPIC_A), cstr(null), TAGS)]), bool(false), bool(true), TAGS),
    );
  });

  it('v10 request: the cluster authorized operations flag is still there', () => {
    expectRequest(
      Metadata,
      10,
      {
        topics: null,
        allowAutoTopicCreation: true,
        includeClusterAuthorizedOperations: true,
        includeTopicAuthorizedOperations: false,
      },
      cat(carr(null), bool(true), bool(true), bool(false), TAGS),
    );
  });

  it('v12 response: topic id after the name, no cluster authorized operations at the end', () => {
    expectResponse(
      Metadata,
      12,
      {
        throttleTimeMs: 0,
        brokers: [{ nodeId: 1, host: 'h', port: 9092, rack: null }],
        clusterId: 'c',
        controllerId: 1,
        topics: [
          {
            errorCode: 0,
            name: 'alpha',
            topicId: TOPIC_A,
            isInternal: false,
            partitions: [
              {
                errorCode: 0,
                partitionIndex: 0,
                leaderId: 1,
                leaderEpoch: 4,
                replicaNodes: [1],
                isrNodes: [1],
                offlineReplicas: [],
              },
            ],
            topicAuthorizedOperations: -2147483648,
          },
        ],
        clusterAuthorizedOperations: -2147483648,
      },
      cat(
        i32(0),
        carr([cat(i32(1), cstr('h'), i32(9092), cstr(null), TAGS)]),
        cstr('c'),
        i32(1),
        carr([
          cat(
            i16(0),
            cstr('alpha'),
            uuidBytes(TOPIC_A),
            bool(false),
            carr([cat(i16(0), i32(0), i32(1), i32(4), carr([i32(1)]), carr([i32(1)]), carr([]), TAGS)]),
            i32(-2147483648),
            TAGS,
          ),
        ]),
        TAGS,
      ),
    );
  });
});
