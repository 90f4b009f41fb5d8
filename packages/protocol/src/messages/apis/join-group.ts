import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, bytes, int16, int32, string } from '../../schema/types';

/**
 * JoinGroup (key 11), versions 0–5: a member (re)joins a consumer group and the coordinator picks
 * the protocol and the leader. librdkafka 2.0.2 probes exactly v0; v4 introduces the
 * MEMBER_ID_REQUIRED round trip and v5 static membership; v6 is flexible (docs/kafka-compat.md §3). Only
 * the leader's response carries the member list.
 */
export const JoinGroup = defineApi({
  apiKey: 11,
  name: 'JoinGroup',
  versions: '0-5',
  flexibleVersions: '6+',
  request: {
    groupId: field(string),
    sessionTimeoutMs: field(int32),
    rebalanceTimeoutMs: field(int32, { versions: '1+', default: -1 }),
    memberId: field(string),
    groupInstanceId: field(string, { versions: '5+', nullable: '5+', default: null }),
    protocolType: field(string),
    protocols: field(
      array(
        struct({
          name: field(string),
          metadata: field(bytes),
        }),
      ),
    ),
  },
  response: {
    throttleTimeMs: field(int32, { versions: '2+' }),
    errorCode: field(int16),
    generationId: field(int32, { default: -1 }),
    protocolName: field(string),
    leader: field(string),
    memberId: field(string),
    members: field(
      array(
        struct({
          memberId: field(string),
          groupInstanceId: field(string, { versions: '5+', nullable: '5+', default: null }),
          metadata: field(bytes),
        }),
      ),
    ),
  },
});
