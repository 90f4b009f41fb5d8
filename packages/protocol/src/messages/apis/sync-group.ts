import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, bytes, int16, int32, string } from '../../schema/types';

/**
 * SyncGroup (key 14), versions 0–3: the leader hands in every member's assignment and each member
 * collects its own. v0 is in librdkafka's balanced-consumer probe, v3 adds the static instance id
 * and v4 is flexible (docs/kafka-compat.md §3). A member the leader did not assign gets empty bytes.
 */
export const SyncGroup = defineApi({
  apiKey: 14,
  name: 'SyncGroup',
  versions: '0-3',
  flexibleVersions: '4+',
  request: {
    groupId: field(string),
    generationId: field(int32),
    memberId: field(string),
    groupInstanceId: field(string, { versions: '3+', nullable: '3+', default: null }),
    assignments: field(
      array(
        struct({
          memberId: field(string),
          assignment: field(bytes),
        }),
      ),
    ),
  },
  response: {
    throttleTimeMs: field(int32, { versions: '1+' }),
    errorCode: field(int16),
    assignment: field(bytes),
  },
});
