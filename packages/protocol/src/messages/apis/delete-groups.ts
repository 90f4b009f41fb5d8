import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, int16, int32, string } from '../../schema/types';

/**
 * DeleteGroups (key 42), versions 0–1: removes empty consumer groups and their offsets, for admin
 * tools. kafkajs and librdkafka both use up to v1 and v2 is flexible (docs/kafka-compat.md §2). The two
 * versions share one layout; the throttle time is first even at v0.
 */
export const DeleteGroups = defineApi({
  apiKey: 42,
  name: 'DeleteGroups',
  versions: '0-1',
  flexibleVersions: '2+',
  request: {
    groupsNames: field(array(string)),
  },
  response: {
    throttleTimeMs: field(int32),
    results: field(
      array(
        struct({
          groupId: field(string),
          errorCode: field(int16),
        }),
      ),
    ),
  },
});
