import { describe, expect, it } from 'vitest';
import { encodeWithKafkajs, kafkajsRequest } from '../../../test/kafkajs-interop';
import { decodeRequestFrame } from '../message-codec';
import { apiByKey } from '../registry';

/**
 * kafkajs 2.2.4 encodes requests of the group, offset, coordinator, ListOffsets and SASL APIs at
 * every version it implements in our range; our codec must decode them to exactly these values.
 * The responses in the other direction are in group-kafkajs-responses.test.ts.
 */

/** Decodes a kafkajs-encoded request frame with our codec, failing the test on a decode error. */
async function decodeKafkajsRequest(apiFolder: string, version: number, input: unknown) {
  const factory = kafkajsRequest(apiFolder, version);
  const frame = await encodeWithKafkajs(factory(input as Record<string, unknown>), 77, 'group-probe');
  expect(frame.readInt32BE(0)).toBe(frame.length - 4);
  const decoded = decodeRequestFrame(frame.subarray(4), apiByKey);
  if (!decoded.ok) throw decoded.error;
  expect(decoded.header.apiVersion).toBe(version);
  expect(decoded.header.correlationId).toBe(77);
  expect(decoded.header.clientId).toBe('group-probe');
  return { apiKey: decoded.header.apiKey, body: decoded.body };
}

describe('kafkajs group and offset requests decode with our codec', () => {
  it.each([1, 2, 3])('ListOffsets v%i', async (version) => {
    const { apiKey, body } = await decodeKafkajsRequest('listOffsets', version, {
      replicaId: -1,
      isolationLevel: 1,
      topics: [
        {
          topic: 'orders',
          partitions: [
            { partition: 0, timestamp: -2 },
            { partition: 3, timestamp: 1700000000123 },
          ],
        },
        { topic: 'payments', partitions: [{ partition: 1, timestamp: -1 }] },
      ],
    });
    expect(apiKey).toBe(2);
    expect(body).toEqual({
      replicaId: -1,
      // kafkajs sends READ_COMMITTED; v1 has no isolation level, so it decodes to the default 0.
      isolationLevel: version >= 2 ? 1 : 0,
      topics: [
        {
          name: 'orders',
          partitions: [
            // Below v4 no current leader epoch is sent: -1, not checked.
            { partitionIndex: 0, currentLeaderEpoch: -1, timestamp: -2n, maxNumOffsets: 1 },
            { partitionIndex: 3, currentLeaderEpoch: -1, timestamp: 1700000000123n, maxNumOffsets: 1 },
          ],
        },
        {
          name: 'payments',
          partitions: [{ partitionIndex: 1, currentLeaderEpoch: -1, timestamp: -1n, maxNumOffsets: 1 }],
        },
      ],
    });
  });

  it.each([2, 3, 4, 5])('OffsetCommit v%i', async (version) => {
    const { apiKey, body } = await decodeKafkajsRequest('offsetCommit', version, {
      groupId: 'billing',
      groupGenerationId: 7,
      memberId: 'member-1',
      retentionTime: 86400000,
      topics: [
        {
          topic: 'orders',
          partitions: [
            { partition: 1, offset: '42', metadata: null },
            { partition: 2, offset: '9000000000', metadata: 'checkpoint' },
          ],
        },
      ],
    });
    expect(apiKey).toBe(8);
    expect(body).toEqual({
      groupId: 'billing',
      generationIdOrMemberEpoch: 7,
      memberId: 'member-1',
      groupInstanceId: null,
      // v5 dropped the retention time; the broker setting decides.
      retentionTimeMs: version <= 4 ? 86400000n : -1n,
      topics: [
        {
          name: 'orders',
          partitions: [
            {
              partitionIndex: 1,
              committedOffset: 42n,
              committedLeaderEpoch: -1,
              commitTimestampMs: -1n,
              committedMetadata: null,
            },
            {
              partitionIndex: 2,
              committedOffset: 9000000000n,
              committedLeaderEpoch: -1,
              commitTimestampMs: -1n,
              committedMetadata: 'checkpoint',
            },
          ],
        },
      ],
    });
  });

  it.each([1, 2, 3, 4])('OffsetFetch v%i', async (version) => {
    const { apiKey, body } = await decodeKafkajsRequest('offsetFetch', version, {
      groupId: 'billing',
      topics: [
        { topic: 'orders', partitions: [{ partition: 0 }, { partition: 5 }] },
        { topic: 'payments', partitions: [{ partition: 2 }] },
      ],
    });
    expect(apiKey).toBe(9);
    expect(body).toEqual({
      groupId: 'billing',
      topics: [
        { name: 'orders', partitionIndexes: [0, 5] },
        { name: 'payments', partitionIndexes: [2] },
      ],
    });
  });

  it.each([
    [1, []],
    [2, []],
    [3, null],
    [4, null],
  ])('OffsetFetch v%i with no topics', async (version, topics) => {
    // From v3 kafkajs writes an empty list as a null array, which means "all topics" from v2 on.
    const { body } = await decodeKafkajsRequest('offsetFetch', version, { groupId: 'billing', topics: [] });
    expect(body).toEqual({ groupId: 'billing', topics });
  });

  it('FindCoordinator v0', async () => {
    const { apiKey, body } = await decodeKafkajsRequest('findCoordinator', 0, { groupId: 'billing' });
    expect(apiKey).toBe(10);
    expect(body).toEqual({ key: 'billing', keyType: 0 });
  });

  it.each([1, 2])('FindCoordinator v%i', async (version) => {
    const { apiKey, body } = await decodeKafkajsRequest('findCoordinator', version, {
      coordinatorKey: 'tx-orders',
      coordinatorType: 1,
    });
    expect(apiKey).toBe(10);
    expect(body).toEqual({ key: 'tx-orders', keyType: 1 });
  });

  it.each([0, 1, 2, 3, 4, 5])('JoinGroup v%i', async (version) => {
    const { apiKey, body } = await decodeKafkajsRequest('joinGroup', version, {
      groupId: 'billing',
      sessionTimeout: 30000,
      rebalanceTimeout: 60000,
      memberId: '',
      groupInstanceId: 'instance-1',
      protocolType: 'consumer',
      groupProtocols: [
        { name: 'RoundRobinAssigner', metadata: Buffer.from([0, 1, 0, 0, 0, 1]) },
        { name: 'range', metadata: Buffer.alloc(0) },
      ],
    });
    expect(apiKey).toBe(11);
    expect(body).toEqual({
      groupId: 'billing',
      sessionTimeoutMs: 30000,
      rebalanceTimeoutMs: version >= 1 ? 60000 : -1,
      memberId: '',
      groupInstanceId: version >= 5 ? 'instance-1' : null,
      protocolType: 'consumer',
      protocols: [
        { name: 'RoundRobinAssigner', metadata: Buffer.from([0, 1, 0, 0, 0, 1]) },
        { name: 'range', metadata: Buffer.alloc(0) },
      ],
    });
  });

  it.each([0, 1, 2, 3])('Heartbeat v%i', async (version) => {
    const { apiKey, body } = await decodeKafkajsRequest('heartbeat', version, {
      groupId: 'billing',
      groupGenerationId: 12,
      memberId: 'member-1',
      groupInstanceId: 'instance-1',
    });
    expect(apiKey).toBe(12);
    expect(body).toEqual({
      groupId: 'billing',
      generationId: 12,
      memberId: 'member-1',
      groupInstanceId: version >= 3 ? 'instance-1' : null,
    });
  });

  it.each([0, 1, 2])('LeaveGroup v%i', async (version) => {
    const { apiKey, body } = await decodeKafkajsRequest('leaveGroup', version, {
      groupId: 'billing',
      memberId: 'member-1',
    });
    expect(apiKey).toBe(13);
    expect(body).toEqual({ groupId: 'billing', memberId: 'member-1', members: [] });
  });

  it('LeaveGroup v3', async () => {
    const { apiKey, body } = await decodeKafkajsRequest('leaveGroup', 3, {
      groupId: 'billing',
      members: [{ memberId: 'member-1' }, { memberId: 'member-2', groupInstanceId: 'instance-2' }],
    });
    expect(apiKey).toBe(13);
    expect(body).toEqual({
      groupId: 'billing',
      memberId: '',
      members: [
        { memberId: 'member-1', groupInstanceId: null },
        { memberId: 'member-2', groupInstanceId: 'instance-2' },
      ],
    });
  });

  it.each([0, 1, 2, 3])('SyncGroup v%i', async (version) => {
    const { apiKey, body } = await decodeKafkajsRequest('syncGroup', version, {
      groupId: 'billing',
      generationId: 12,
      memberId: 'member-1',
      groupInstanceId: 'instance-1',
      groupAssignment: [
        { memberId: 'member-1', memberAssignment: Buffer.from('assign-1') },
        { memberId: 'member-2', memberAssignment: Buffer.alloc(0) },
      ],
    });
    expect(apiKey).toBe(14);
    expect(body).toEqual({
      groupId: 'billing',
      generationId: 12,
      memberId: 'member-1',
      groupInstanceId: version >= 3 ? 'instance-1' : null,
      assignments: [
        { memberId: 'member-1', assignment: Buffer.from('assign-1') },
        { memberId: 'member-2', assignment: Buffer.alloc(0) },
      ],
    });
  });

  it('SyncGroup v0 from a follower (no assignments)', async () => {
    const { body } = await decodeKafkajsRequest('syncGroup', 0, {
      groupId: 'billing',
      generationId: 3,
      memberId: 'member-2',
      groupAssignment: [],
    });
    expect(body).toEqual({
      groupId: 'billing',
      generationId: 3,
      memberId: 'member-2',
      groupInstanceId: null,
      assignments: [],
    });
  });
});

describe('kafkajs admin and SASL requests decode with our codec', () => {
  it.each([0, 1, 2])('DescribeGroups v%i', async (version) => {
    const { apiKey, body } = await decodeKafkajsRequest('describeGroups', version, {
      groupIds: ['billing', 'audit'],
    });
    expect(apiKey).toBe(15);
    expect(body).toEqual({ groups: ['billing', 'audit'], includeAuthorizedOperations: false });
  });

  it.each([0, 1, 2])('ListGroups v%i', async (version) => {
    const { apiKey, body } = await decodeKafkajsRequest('listGroups', version, {});
    expect(apiKey).toBe(16);
    expect(body).toEqual({});
  });

  it.each([0, 1])('SaslHandshake v%i', async (version) => {
    const { apiKey, body } = await decodeKafkajsRequest('saslHandshake', version, {
      mechanism: 'SCRAM-SHA-256',
    });
    expect(apiKey).toBe(17);
    expect(body).toEqual({ mechanism: 'SCRAM-SHA-256' });
  });

  it.each([0, 1])('SaslAuthenticate v%i', async (version) => {
    const payload = Buffer.from('\u0000alice\u0000secret');
    // kafkajs mechanisms hand the request an already length-prefixed BYTES value, written raw.
    const lengthPrefixed = Buffer.alloc(4 + payload.length);
    lengthPrefixed.writeInt32BE(payload.length, 0);
    payload.copy(lengthPrefixed, 4);
    const { apiKey, body } = await decodeKafkajsRequest('saslAuthenticate', version, {
      authBytes: lengthPrefixed,
    });
    expect(apiKey).toBe(36);
    expect(body).toEqual({ authBytes: payload });
  });

  it.each([0, 1])('DeleteGroups v%i', async (version) => {
    // The kafkajs request takes the group list itself, not an object.
    const { apiKey, body } = await decodeKafkajsRequest('deleteGroups', version, ['billing', 'audit']);
    expect(apiKey).toBe(42);
    expect(body).toEqual({ groupsNames: ['billing', 'audit'] });
  });
});
