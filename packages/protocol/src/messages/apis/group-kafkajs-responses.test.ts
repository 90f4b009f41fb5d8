import { describe, expect, it } from 'vitest';
import { decodeWithKafkajs } from '../../../test/kafkajs-interop';
import { encodeResponseFrame } from '../message-codec';
import { DeleteGroups } from './delete-groups';
import { DescribeGroups } from './describe-groups';
import { FindCoordinator } from './find-coordinator';
import { Heartbeat } from './heartbeat';
import { JoinGroup } from './join-group';
import { LeaveGroup } from './leave-group';
import { ListGroups } from './list-groups';
import { ListOffsets } from './list-offsets';
import { OffsetCommit } from './offset-commit';
import { OffsetFetch } from './offset-fetch';
import { SaslAuthenticate } from './sasl-authenticate';
import { SaslHandshake } from './sasl-handshake';
import { SyncGroup } from './sync-group';

/**
 * Our responses of the group, offset, coordinator, ListOffsets and SASL APIs, decoded by kafkajs
 * 2.2.4 at every version it implements in our range. kafkajs reports the throttle time as
 * `throttleTime` up to the version before KIP-219 and as `clientSideThrottleTime` from it on.
 *
 * kafkajs never checks that it consumed the whole response, so a field our schema wrongly sends
 * at the end of an older version would go unnoticed; where a version adds a trailing field, the
 * frame length is checked byte by byte as well.
 */

/** The throttle time kafkajs decoded, wherever this version puts it. */
function throttleOf(decoded: Record<string, unknown>): unknown {
  return decoded.clientSideThrottleTime ?? decoded.throttleTime;
}

describe('our group and offset responses decode with kafkajs', () => {
  it.each([1, 2, 3])('ListOffsets v%i', async (version) => {
    const frame = encodeResponseFrame(ListOffsets, version, 5, {
      throttleTimeMs: 25,
      topics: [
        {
          name: 'orders',
          partitions: [
            {
              partitionIndex: 0,
              errorCode: 0,
              oldStyleOffsets: [],
              timestamp: -1n,
              offset: 42n,
              leaderEpoch: -1,
            },
            {
              partitionIndex: 4,
              errorCode: 3,
              oldStyleOffsets: [],
              timestamp: 1700000000123n,
              offset: -1n,
              leaderEpoch: -1,
            },
          ],
        },
      ],
    });
    const decoded = await decodeWithKafkajs('listOffsets', version, frame);
    expect(decoded.responses).toEqual([
      {
        topic: 'orders',
        partitions: [
          { partition: 0, errorCode: 0, timestamp: '-1', offset: '42' },
          { partition: 4, errorCode: 3, timestamp: '1700000000123', offset: '-1' },
        ],
      },
    ]);
    if (version >= 2) expect(throttleOf(decoded)).toBe(25);
  });

  it.each([2, 3, 4, 5])('OffsetCommit v%i', async (version) => {
    const frame = encodeResponseFrame(OffsetCommit, version, 5, {
      throttleTimeMs: 10,
      topics: [
        {
          name: 'orders',
          partitions: [
            { partitionIndex: 1, errorCode: 0 },
            { partitionIndex: 2, errorCode: 27 },
          ],
        },
      ],
    });
    const decoded = await decodeWithKafkajs('offsetCommit', version, frame);
    expect(decoded.responses).toEqual([
      {
        topic: 'orders',
        partitions: [
          { partition: 1, errorCode: 0 },
          { partition: 2, errorCode: 27 },
        ],
      },
    ]);
    if (version >= 3) expect(throttleOf(decoded)).toBe(10);
  });

  it.each([1, 2, 3, 4])('OffsetFetch v%i', async (version) => {
    const frame = encodeResponseFrame(OffsetFetch, version, 5, {
      throttleTimeMs: 15,
      topics: [
        {
          name: 'orders',
          partitions: [
            {
              partitionIndex: 0,
              committedOffset: 42n,
              committedLeaderEpoch: -1,
              metadata: 'checkpoint',
              errorCode: 0,
            },
            {
              partitionIndex: 5,
              committedOffset: -1n,
              committedLeaderEpoch: -1,
              metadata: null,
              errorCode: 0,
            },
          ],
        },
      ],
      errorCode: 14,
    });
    const decoded = await decodeWithKafkajs('offsetFetch', version, frame);
    expect(decoded.responses).toEqual([
      {
        topic: 'orders',
        partitions: [
          { partition: 0, offset: '42', metadata: 'checkpoint', errorCode: 0 },
          { partition: 5, offset: '-1', metadata: null, errorCode: 0 },
        ],
      },
    ]);
    // The top-level error code (v2+) comes after the topics.
    if (version >= 2) expect(decoded.errorCode).toBe(14);
    if (version >= 3) expect(throttleOf(decoded)).toBe(15);
    // size + correlation id, throttle (v3+), topic count, 'orders', partition count, partition 0
    // (index, offset, 'checkpoint', error), partition 5 (index, offset, null, error), error (v2+).
    const partitions = 4 + (4 + 8 + 12 + 2) + (4 + 8 + 2 + 2);
    expect(frame.length).toBe(8 + (version >= 3 ? 4 : 0) + 4 + 8 + partitions + (version >= 2 ? 2 : 0));
  });

  it.each([0, 1, 2])('FindCoordinator v%i', async (version) => {
    const frame = encodeResponseFrame(FindCoordinator, version, 5, {
      throttleTimeMs: 20,
      errorCode: 0,
      errorMessage: 'NONE',
      nodeId: 3,
      host: '127.0.0.1',
      port: 19092,
    });
    const decoded = await decodeWithKafkajs('findCoordinator', version, frame);
    expect(decoded.errorCode).toBe(0);
    expect(decoded.coordinator).toEqual({ nodeId: 3, host: '127.0.0.1', port: 19092 });
    if (version >= 1) {
      expect(decoded.errorMessage).toBe('NONE');
      expect(throttleOf(decoded)).toBe(20);
    }
  });

  it.each([0, 1, 2, 3, 4, 5])('JoinGroup v%i (leader)', async (version) => {
    const frame = encodeResponseFrame(JoinGroup, version, 5, {
      throttleTimeMs: 30,
      errorCode: 0,
      generationId: 4,
      protocolName: 'RoundRobinAssigner',
      leader: 'member-1',
      memberId: 'member-1',
      members: [
        { memberId: 'member-1', groupInstanceId: 'instance-1', metadata: Buffer.from([0, 1, 2]) },
        { memberId: 'member-2', groupInstanceId: null, metadata: Buffer.from([3]) },
      ],
    });
    const decoded = await decodeWithKafkajs('joinGroup', version, frame);
    expect(decoded).toMatchObject({
      errorCode: 0,
      generationId: 4,
      groupProtocol: 'RoundRobinAssigner',
      leaderId: 'member-1',
      memberId: 'member-1',
    });
    const members = decoded.members as Record<string, unknown>[];
    expect(members.map((member) => member.memberId)).toEqual(['member-1', 'member-2']);
    expect(members.map((member) => member.memberMetadata)).toEqual([
      Buffer.from([0, 1, 2]),
      Buffer.from([3]),
    ]);
    if (version >= 5) {
      expect(members.map((member) => member.groupInstanceId)).toEqual(['instance-1', null]);
    }
    if (version >= 2) expect(throttleOf(decoded)).toBe(30);
  });

  it.each([4, 5])('JoinGroup v%i MEMBER_ID_REQUIRED', async (version) => {
    const frame = encodeResponseFrame(JoinGroup, version, 5, {
      throttleTimeMs: 0,
      errorCode: 79,
      generationId: -1,
      protocolName: '',
      leader: '',
      memberId: 'weir-generated-id',
      members: [],
    });
    const decoded = await decodeWithKafkajs('joinGroup', version, frame);
    expect(decoded).toMatchObject({ errorCode: 79, generationId: -1, memberId: 'weir-generated-id' });
    expect(decoded.members).toEqual([]);
  });

  it.each([0, 1, 2, 3])('Heartbeat v%i', async (version) => {
    const frame = encodeResponseFrame(Heartbeat, version, 5, { throttleTimeMs: 35, errorCode: 27 });
    const decoded = await decodeWithKafkajs('heartbeat', version, frame);
    expect(decoded.errorCode).toBe(27);
    if (version >= 1) expect(throttleOf(decoded)).toBe(35);
  });

  it.each([0, 1, 2, 3])('LeaveGroup v%i', async (version) => {
    const frame = encodeResponseFrame(LeaveGroup, version, 5, {
      throttleTimeMs: 40,
      errorCode: 0,
      members: [
        { memberId: 'member-1', groupInstanceId: null, errorCode: 0 },
        { memberId: 'member-2', groupInstanceId: 'instance-2', errorCode: 25 },
      ],
    });
    const decoded = await decodeWithKafkajs('leaveGroup', version, frame);
    expect(decoded.errorCode).toBe(0);
    if (version >= 1) expect(throttleOf(decoded)).toBe(40);
    // Before v3 the member list must not be sent at all: size, correlation id, throttle, error.
    if (version < 3) expect(frame.length).toBe(8 + (version >= 1 ? 4 : 0) + 2);
    if (version >= 3) {
      expect(decoded.members).toEqual([
        { memberId: 'member-1', groupInstanceId: null, errorCode: 0 },
        { memberId: 'member-2', groupInstanceId: 'instance-2', errorCode: 25 },
      ]);
    }
  });

  it.each([0, 1, 2, 3])('SyncGroup v%i', async (version) => {
    const frame = encodeResponseFrame(SyncGroup, version, 5, {
      throttleTimeMs: 45,
      errorCode: 0,
      assignment: Buffer.from('assign-1'),
    });
    const decoded = await decodeWithKafkajs('syncGroup', version, frame);
    expect(decoded.errorCode).toBe(0);
    expect(decoded.memberAssignment).toEqual(Buffer.from('assign-1'));
    if (version >= 1) expect(throttleOf(decoded)).toBe(45);
  });

  it.each([0, 3])('SyncGroup v%i with an empty assignment', async (version) => {
    const frame = encodeResponseFrame(SyncGroup, version, 5, {
      throttleTimeMs: 0,
      errorCode: 0,
      assignment: Buffer.alloc(0),
    });
    const decoded = await decodeWithKafkajs('syncGroup', version, frame);
    expect(decoded.memberAssignment).toEqual(Buffer.alloc(0));
  });
});

describe('our admin and SASL responses decode with kafkajs', () => {
  it.each([0, 1, 2])('DescribeGroups v%i', async (version) => {
    const frame = encodeResponseFrame(DescribeGroups, version, 5, {
      throttleTimeMs: 50,
      groups: [
        {
          errorCode: 0,
          groupId: 'billing',
          groupState: 'Stable',
          protocolType: 'consumer',
          protocolData: 'RoundRobinAssigner',
          members: [
            {
              memberId: 'member-1',
              groupInstanceId: null,
              clientId: 'billing-app',
              clientHost: '/127.0.0.1',
              memberMetadata: Buffer.from([0, 1]),
              memberAssignment: Buffer.from([2, 3, 4]),
            },
          ],
          authorizedOperations: -2147483648,
        },
        {
          errorCode: 69,
          groupId: 'ghost',
          groupState: 'Dead',
          protocolType: '',
          protocolData: '',
          members: [],
          authorizedOperations: -2147483648,
        },
      ],
    });
    const decoded = await decodeWithKafkajs('describeGroups', version, frame);
    expect(decoded.groups).toEqual([
      {
        errorCode: 0,
        groupId: 'billing',
        state: 'Stable',
        protocolType: 'consumer',
        protocol: 'RoundRobinAssigner',
        members: [
          {
            memberId: 'member-1',
            clientId: 'billing-app',
            clientHost: '/127.0.0.1',
            memberMetadata: Buffer.from([0, 1]),
            memberAssignment: Buffer.from([2, 3, 4]),
          },
        ],
      },
      { errorCode: 69, groupId: 'ghost', state: 'Dead', protocolType: '', protocol: '', members: [] },
    ]);
    if (version >= 1) expect(throttleOf(decoded)).toBe(50);
  });

  it.each([0, 1, 2])('ListGroups v%i', async (version) => {
    const frame = encodeResponseFrame(ListGroups, version, 5, {
      throttleTimeMs: 55,
      errorCode: 0,
      groups: [
        { groupId: 'billing', protocolType: 'consumer' },
        { groupId: 'connect-sink', protocolType: 'connect' },
      ],
    });
    const decoded = await decodeWithKafkajs('listGroups', version, frame);
    expect(decoded.errorCode).toBe(0);
    expect(decoded.groups).toEqual([
      { groupId: 'billing', protocolType: 'consumer' },
      { groupId: 'connect-sink', protocolType: 'connect' },
    ]);
    if (version >= 1) expect(throttleOf(decoded)).toBe(55);
  });

  it.each([0, 1])('SaslHandshake v%i', async (version) => {
    const frame = encodeResponseFrame(SaslHandshake, version, 5, {
      errorCode: 33,
      mechanisms: ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'],
    });
    const decoded = await decodeWithKafkajs('saslHandshake', version, frame);
    expect(decoded).toEqual({
      errorCode: 33,
      enabledMechanisms: ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'],
    });
  });

  it.each([0, 1])('SaslAuthenticate v%i', async (version) => {
    const serverFinal = Buffer.from('v=rmF9pqV8S7suAoZWja4dJRkFsKQ=');
    const frame = encodeResponseFrame(SaslAuthenticate, version, 5, {
      errorCode: 0,
      errorMessage: null,
      authBytes: serverFinal,
      sessionLifetimeMs: 3600000n,
    });
    const decoded = await decodeWithKafkajs('saslAuthenticate', version, frame);
    expect(decoded.errorCode).toBe(0);
    expect(decoded.errorMessage).toBeNull();
    // kafkajs re-prefixes the bytes with their length for its SASL mechanisms.
    const authBytes = decoded.authBytes as Buffer;
    expect(authBytes.readInt32BE(0)).toBe(serverFinal.length);
    expect(authBytes.subarray(4)).toEqual(serverFinal);
    if (version >= 1) expect(decoded.sessionLifetimeMs).toBe('3600000');
    // size, correlation id, error, null message, auth bytes, session lifetime (v1+).
    expect(frame.length).toBe(8 + 2 + 2 + 4 + serverFinal.length + (version >= 1 ? 8 : 0));
  });

  it.each([0, 1])('SaslAuthenticate v%i failure', async (version) => {
    const frame = encodeResponseFrame(SaslAuthenticate, version, 5, {
      errorCode: 58,
      errorMessage: 'Authentication failed: invalid credentials',
      authBytes: Buffer.alloc(0),
      sessionLifetimeMs: 0n,
    });
    const decoded = await decodeWithKafkajs('saslAuthenticate', version, frame);
    expect(decoded.errorCode).toBe(58);
    expect(decoded.errorMessage).toBe('Authentication failed: invalid credentials');
    expect(decoded.authBytes).toEqual(Buffer.from([0, 0, 0, 0]));
    if (version >= 1) expect(decoded.sessionLifetimeMs).toBe('0');
  });

  it.each([0, 1])('DeleteGroups v%i', async (version) => {
    const frame = encodeResponseFrame(DeleteGroups, version, 5, {
      throttleTimeMs: 60,
      results: [
        { groupId: 'billing', errorCode: 0 },
        { groupId: 'ghost', errorCode: 69 },
      ],
    });
    const decoded = await decodeWithKafkajs('deleteGroups', version, frame);
    // kafkajs names it throttleTimeMs here, at both versions.
    expect(decoded.throttleTimeMs).toBe(60);
    const results = decoded.results as Record<string, unknown>[];
    expect(results.map(({ groupId, errorCode }) => ({ groupId, errorCode }))).toEqual([
      { groupId: 'billing', errorCode: 0 },
      { groupId: 'ghost', errorCode: 69 },
    ]);
    expect(results[0]!.error).toBeUndefined();
    expect(results[1]!.error).toMatchObject({ type: 'GROUP_ID_NOT_FOUND' });
  });
});
