import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, int16, int32, string } from '../../schema/types';

/**
 * LeaveGroup (key 13), versions 0–3: members leave a group without waiting for their session to
 * time out. v0–2 name one member; v3 (what kafkajs sends) names a batch of members, each with an
 * optional static instance id, and answers per member. librdkafka 2.0.2 uses at most v1; v4 is
 * flexible (docs/kafka-compat.md §3).
 */
export const LeaveGroup = defineApi({
  apiKey: 13,
  name: 'LeaveGroup',
  versions: '0-3',
  flexibleVersions: '4+',
  request: {
    groupId: field(string),
    memberId: field(string, { versions: '0-2' }),
    members: field(
      array(
        struct({
          memberId: field(string, { versions: '3+' }),
          groupInstanceId: field(string, { versions: '3+', nullable: '3+', default: null }),
        }),
      ),
      { versions: '3+' },
    ),
  },
  response: {
    throttleTimeMs: field(int32, { versions: '1+' }),
    errorCode: field(int16),
    members: field(
      array(
        struct({
          memberId: field(string, { versions: '3+' }),
          groupInstanceId: field(string, { versions: '3+', nullable: '3+' }),
          errorCode: field(int16, { versions: '3+' }),
        }),
      ),
      { versions: '3+' },
    ),
  },
});
