import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, int16, int32, string } from '../../schema/types';

/**
 * DeleteTopics (key 20), versions 0–3 (docs/kafka-compat.md §3): both clients send at most v1, v1 only
 * adds the response's throttle time, and v2 and v3 are v1 again (Kafka 3.9 serves them). Topics are named by string here; topic IDs arrive in v6.
 */
export const DeleteTopics = defineApi({
  apiKey: 20,
  name: 'DeleteTopics',
  versions: '0-3',
  flexibleVersions: '4+',
  request: {
    topicNames: field(array(string)),
    timeoutMs: field(int32),
  },
  response: {
    throttleTimeMs: field(int32, { versions: '1+' }),
    responses: field(
      array(
        struct({
          name: field(string),
          errorCode: field(int16),
        }),
      ),
    ),
  },
});
