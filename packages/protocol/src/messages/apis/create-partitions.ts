import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, bool, int16, int32, string } from '../../schema/types';

/**
 * CreatePartitions (key 37), versions 0–1: kafkajs sends up to v1 and librdkafka v0; v2 is the
 * first flexible version. Both versions share one layout. A null assignment list lets the broker
 * place the new partitions (kafkajs also sends an empty list as null).
 */
export const CreatePartitions = defineApi({
  apiKey: 37,
  name: 'CreatePartitions',
  versions: '0-1',
  flexibleVersions: '2+',
  request: {
    topics: field(
      array(
        struct({
          name: field(string),
          count: field(int32),
          assignments: field(array(struct({ brokerIds: field(array(int32)) })), { nullable: '0+' }),
        }),
      ),
    ),
    timeoutMs: field(int32),
    validateOnly: field(bool),
  },
  response: {
    throttleTimeMs: field(int32),
    results: field(
      array(
        struct({
          name: field(string),
          errorCode: field(int16),
          errorMessage: field(string, { nullable: '0+', default: null }),
        }),
      ),
    ),
  },
});
