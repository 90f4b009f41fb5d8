import { describe, expect, it } from 'vitest';
import type { ApiSchema, RequestOf, ResponseInputOf, ResponseOf } from '../../schema/api';
import {
  decodeRequestFrame,
  decodeResponseFrame,
  encodeRequestFrame,
  encodeResponseFrame,
} from '../message-codec';
import { apiByKey } from '../registry';
import { DescribeGroups } from './describe-groups';
import { OffsetCommit } from './offset-commit';
import { OffsetDelete } from './offset-delete';
import { OffsetFetch } from './offset-fetch';

/**
 * Known-answer tests for the versions in our range that kafkajs 2.2.4 does not implement
 * (OffsetCommit 6–7, OffsetFetch 5, DescribeGroups 3–4, OffsetDelete 0). Each wire vector is
 * assembled by hand, field by field, from the layout in Apache Kafka's message definitions, with
 * helpers that share nothing with our codec; ours must decode it to the expected value and encode
 * that value back to the same bytes. Same-typed neighbours get distinct values, so a swapped or
 * misplaced field fails.
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
/** STRING / NULLABLE_STRING: int16 byte length (-1 for null), then UTF-8. */
const str = (value: string | null) =>
  value === null ? i16(-1) : Buffer.concat([i16(Buffer.byteLength(value)), Buffer.from(value, 'utf8')]);
/** BYTES: int32 length, then the bytes. */
const bytes = (value: Buffer) => Buffer.concat([i32(value.length), value]);
/** ARRAY / nullable ARRAY: int32 count (-1 for null), then the elements. */
const arr = (items: Buffer[] | null) =>
  items === null ? i32(-1) : Buffer.concat([i32(items.length), ...items]);
const cat = (...parts: Buffer[]) => Buffer.concat(parts);

const CORRELATION_ID = 0x0a0b0c0d;
const CLIENT_ID = 'kat';

function expectRequest<A extends ApiSchema>(api: A, version: number, value: RequestOf<A>, body: Buffer) {
  // Request header v1: api_key, api_version, correlation_id, client_id.
  const header = cat(i16(api.apiKey), i16(version), i32(CORRELATION_ID), str(CLIENT_ID));
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
  // Response header v0: correlation_id only.
  const frame = cat(i32(4 + body.length), i32(CORRELATION_ID), body);
  expect(encodeResponseFrame(api, version, CORRELATION_ID, value as ResponseInputOf<A>).toString('hex')).toBe(
    frame.toString('hex'),
  );
  const decoded = decodeResponseFrame(api, version, frame.subarray(4));
  if (!decoded.ok) throw decoded.error;
  expect(decoded.value.correlationId).toBe(CORRELATION_ID);
  expect(decoded.value.body).toEqual(value);
}

describe('OffsetCommit v6–7 known answers', () => {
  const topics = [
    {
      name: 'orders',
      partitions: [
        {
          partitionIndex: 2,
          committedOffset: 100n,
          committedLeaderEpoch: 9,
          commitTimestampMs: -1n,
          committedMetadata: null,
        },
        {
          partitionIndex: 3,
          committedOffset: 4294967296n,
          committedLeaderEpoch: -1,
          commitTimestampMs: -1n,
          committedMetadata: 'm',
        },
      ],
    },
  ];
  // topics => name [partition_index committed_offset committed_leader_epoch committed_metadata]
  const topicsWire = arr([
    cat(
      str('orders'),
      arr([cat(i32(2), i64(100n), i32(9), str(null)), cat(i32(3), i64(4294967296n), i32(-1), str('m'))]),
    ),
  ]);

  it('v6 request: leader epoch per partition, no retention time, no instance id', () => {
    // group_id generation_id member_id topics
    const body = cat(str('billing'), i32(17), str('member-1'), topicsWire);
    expectRequest(
      OffsetCommit,
      6,
      {
        groupId: 'billing',
        generationIdOrMemberEpoch: 17,
        memberId: 'member-1',
        groupInstanceId: null,
        retentionTimeMs: -1n,
        topics,
      },
      body,
    );
  });

  it.each([
    ['instance-7', str('instance-7')],
    [null, str(null)],
  ] as const)('v7 request with group instance id %s', (groupInstanceId, instanceWire) => {
    // group_id generation_id member_id group_instance_id topics
    const body = cat(str('billing'), i32(17), str('member-1'), instanceWire, topicsWire);
    expectRequest(
      OffsetCommit,
      7,
      {
        groupId: 'billing',
        generationIdOrMemberEpoch: 17,
        memberId: 'member-1',
        groupInstanceId,
        retentionTimeMs: -1n,
        topics,
      },
      body,
    );
  });

  it('v4 request still carries the retention time after the member id', () => {
    // group_id generation_id member_id retention_time_ms topics (no leader epoch before v6)
    const body = cat(
      str('billing'),
      i32(17),
      str('member-1'),
      i64(-1n),
      arr([cat(str('orders'), arr([cat(i32(2), i64(100n), str(null))]))]),
    );
    expectRequest(
      OffsetCommit,
      4,
      {
        groupId: 'billing',
        generationIdOrMemberEpoch: 17,
        memberId: 'member-1',
        groupInstanceId: null,
        retentionTimeMs: -1n,
        topics: [
          {
            name: 'orders',
            partitions: [
              {
                partitionIndex: 2,
                committedOffset: 100n,
                committedLeaderEpoch: -1,
                commitTimestampMs: -1n,
                committedMetadata: null,
              },
            ],
          },
        ],
      },
      body,
    );
  });

  it.each([6, 7])('v%i response: throttle first, then per-partition errors', (version) => {
    // throttle_time_ms topics => name [partition_index error_code]
    const body = cat(i32(250), arr([cat(str('orders'), arr([cat(i32(2), i16(0)), cat(i32(3), i16(22))]))]));
    expectResponse(
      OffsetCommit,
      version,
      {
        throttleTimeMs: 250,
        topics: [
          {
            name: 'orders',
            partitions: [
              { partitionIndex: 2, errorCode: 0 },
              { partitionIndex: 3, errorCode: 22 },
            ],
          },
        ],
      },
      body,
    );
  });
});

describe('OffsetFetch v5 known answers', () => {
  it('request with topics', () => {
    // group_id topics => name [partition_indexes]
    const body = cat(str('billing'), arr([cat(str('orders'), arr([i32(0), i32(7)]))]));
    expectRequest(
      OffsetFetch,
      5,
      { groupId: 'billing', topics: [{ name: 'orders', partitionIndexes: [0, 7] }] },
      body,
    );
  });

  it.each([2, 5])('v%i request for all topics (null array)', (version) => {
    // kafkajs writes an empty list where it could send null at v2, so this edge needs its own vector.
    expectRequest(OffsetFetch, version, { groupId: 'billing', topics: null }, cat(str('billing'), arr(null)));
  });

  it('v1 request with a null topic array is rejected (nullable only from v2)', () => {
    const body = cat(str('billing'), arr(null));
    const header = cat(i16(9), i16(1), i32(CORRELATION_ID), str(CLIENT_ID));
    const decoded = decodeRequestFrame(cat(header, body), apiByKey);
    expect(decoded.ok).toBe(false);
    expect(decoded.header?.apiVersion).toBe(1);
  });

  it('response: leader epoch between offset and metadata, error code last', () => {
    // throttle_time_ms topics => name [partition_index committed_offset committed_leader_epoch
    // metadata error_code] error_code
    const body = cat(
      i32(30),
      arr([
        cat(
          str('orders'),
          arr([
            cat(i32(0), i64(42n), i32(5), str('checkpoint'), i16(0)),
            cat(i32(7), i64(-1n), i32(-1), str(''), i16(0)),
          ]),
        ),
      ]),
      i16(14),
    );
    expectResponse(
      OffsetFetch,
      5,
      {
        throttleTimeMs: 30,
        topics: [
          {
            name: 'orders',
            partitions: [
              {
                partitionIndex: 0,
                committedOffset: 42n,
                committedLeaderEpoch: 5,
                metadata: 'checkpoint',
                errorCode: 0,
              },
              {
                partitionIndex: 7,
                committedOffset: -1n,
                committedLeaderEpoch: -1,
                metadata: '',
                errorCode: 0,
              },
            ],
          },
        ],
        errorCode: 14,
      },
      body,
    );
  });
});

describe('DescribeGroups v3–4 known answers', () => {
  it.each([3, 4])('v%i request: group ids, then include_authorized_operations', (version) => {
    const body = cat(arr([str('billing'), str('audit')]), bool(true));
    expectRequest(
      DescribeGroups,
      version,
      { groups: ['billing', 'audit'], includeAuthorizedOperations: true },
      body,
    );
  });

  const member = (groupInstanceId: string | null) => ({
    memberId: 'member-1',
    groupInstanceId,
    clientId: 'billing-app',
    clientHost: '/127.0.0.1',
    memberMetadata: Buffer.from([0, 1]),
    memberAssignment: Buffer.from([2, 3, 4]),
  });
  const group = (groupInstanceId: string | null) => ({
    errorCode: 0,
    groupId: 'billing',
    groupState: 'Stable',
    protocolType: 'consumer',
    protocolData: 'range',
    members: [member(groupInstanceId)],
    authorizedOperations: 0x00000ff8,
  });
  // error_code group_id group_state protocol_type protocol_data [members] authorized_operations
  const groupWire = (memberWire: Buffer) =>
    cat(
      i16(0),
      str('billing'),
      str('Stable'),
      str('consumer'),
      str('range'),
      arr([memberWire]),
      i32(0x00000ff8),
    );
  const memberTail = cat(
    str('billing-app'),
    str('/127.0.0.1'),
    bytes(Buffer.from([0, 1])),
    bytes(Buffer.from([2, 3, 4])),
  );

  it('v3 response: authorized operations after the members, no instance id', () => {
    // member_id client_id client_host member_metadata member_assignment
    const body = cat(i32(12), arr([groupWire(cat(str('member-1'), memberTail))]));
    expectResponse(DescribeGroups, 3, { throttleTimeMs: 12, groups: [group(null)] }, body);
  });

  it.each([
    ['instance-1', str('instance-1')],
    [null, str(null)],
  ] as const)('v4 response: group instance id %s after the member id', (groupInstanceId, instanceWire) => {
    // member_id group_instance_id client_id client_host member_metadata member_assignment
    const body = cat(i32(12), arr([groupWire(cat(str('member-1'), instanceWire, memberTail))]));
    expectResponse(DescribeGroups, 4, { throttleTimeMs: 12, groups: [group(groupInstanceId)] }, body);
  });

  it('v2 response decodes authorized operations to its default, INT32_MIN', () => {
    const body = cat(i32(0), arr([cat(i16(69), str('ghost'), str('Dead'), str(''), str(''), arr([]))]));
    const frame = cat(i32(4 + body.length), i32(1), body);
    const decoded = decodeResponseFrame(DescribeGroups, 2, frame.subarray(4));
    if (!decoded.ok) throw decoded.error;
    expect(decoded.value.body.groups).toEqual([
      {
        errorCode: 69,
        groupId: 'ghost',
        groupState: 'Dead',
        protocolType: '',
        protocolData: '',
        members: [],
        authorizedOperations: -2147483648,
      },
    ]);
  });
});

describe('OffsetDelete v0 known answers', () => {
  it('request: group id, then topics with partition indexes', () => {
    const body = cat(
      str('billing'),
      arr([cat(str('orders'), arr([i32(0), i32(4)])), cat(str('payments'), arr([i32(1)]))]),
    );
    expectRequest(
      OffsetDelete,
      0,
      {
        groupId: 'billing',
        topics: [
          { name: 'orders', partitions: [{ partitionIndex: 0 }, { partitionIndex: 4 }] },
          { name: 'payments', partitions: [{ partitionIndex: 1 }] },
        ],
      },
      body,
    );
  });

  it('response: error code before throttle time', () => {
    // error_code throttle_time_ms topics => name [partition_index error_code]
    const body = cat(
      i16(0),
      i32(65),
      arr([cat(str('orders'), arr([cat(i32(0), i16(0)), cat(i32(4), i16(86))]))]),
    );
    expectResponse(
      OffsetDelete,
      0,
      {
        errorCode: 0,
        throttleTimeMs: 65,
        topics: [
          {
            name: 'orders',
            partitions: [
              { partitionIndex: 0, errorCode: 0 },
              { partitionIndex: 4, errorCode: 86 },
            ],
          },
        ],
      },
      body,
    );
  });
});
