import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, int16, int32, string } from '../../schema/types';

/**
 * ListGroups (key 16), versions 0–2: every group this coordinator knows, for admin tools. kafkajs
 * asks every broker at up to v2 and librdkafka's legacy listing pins v0; v3 is flexible and the
 * state filter only arrives in v4 (docs/kafka-compat.md §3). The request has no fields in this range.
 */
export const ListGroups = defineApi({
  apiKey: 16,
  name: 'ListGroups',
  versions: '0-2',
  flexibleVersions: '3+',
  request: {},
  response: {
    throttleTimeMs: field(int32, { versions: '1+' }),
    errorCode: field(int16),
    groups: field(
      array(
        struct({
          groupId: field(string),
          protocolType: field(string),
        }),
      ),
    ),
  },
});
