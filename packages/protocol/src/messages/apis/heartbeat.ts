import { defineApi } from '../../schema/api';
import { field } from '../../schema/struct';
import { int16, int32, string } from '../../schema/types';

/**
 * Heartbeat (key 12), versions 0–3: a member tells the coordinator it is alive and learns whether
 * a rebalance is under way. v0 is in librdkafka's balanced-consumer probe, v3 adds the static
 * instance id and v4 is flexible (docs/kafka-compat.md §3).
 */
export const Heartbeat = defineApi({
  apiKey: 12,
  name: 'Heartbeat',
  versions: '0-3',
  flexibleVersions: '4+',
  request: {
    groupId: field(string),
    generationId: field(int32),
    memberId: field(string),
    groupInstanceId: field(string, { versions: '3+', nullable: '3+', default: null }),
  },
  response: {
    throttleTimeMs: field(int32, { versions: '1+' }),
    errorCode: field(int16),
  },
});
