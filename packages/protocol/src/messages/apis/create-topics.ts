import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, bool, int16, int32, string } from '../../schema/types';

/**
 * CreateTopics (key 19), versions 0–4 (docs/kafka-compat.md §3): kafkajs sends up to v3, librdkafka up to
 * v4, and v5 is the first flexible version. v4 is v3 on the wire; it only lets -1 partitions or -1
 * replication factor mean "use the broker default".
 */
export const CreateTopics = defineApi({
  apiKey: 19,
  name: 'CreateTopics',
  versions: '0-4',
  flexibleVersions: '5+',
  request: {
    topics: field(
      array(
        struct({
          name: field(string),
          numPartitions: field(int32),
          replicationFactor: field(int16),
          assignments: field(
            array(
              struct({
                partitionIndex: field(int32),
                brokerIds: field(array(int32)),
              }),
            ),
          ),
          configs: field(
            array(
              struct({
                name: field(string),
                value: field(string, { nullable: '0+' }),
              }),
            ),
          ),
        }),
      ),
    ),
    timeoutMs: field(int32, { default: 60000 }),
    validateOnly: field(bool, { versions: '1+', default: false }),
  },
  response: {
    throttleTimeMs: field(int32, { versions: '2+' }),
    topics: field(
      array(
        struct({
          name: field(string),
          errorCode: field(int16),
          // Kafka declares no default here, so a v0 response decodes to "" rather than null.
          errorMessage: field(string, { versions: '1+', nullable: '0+' }),
        }),
      ),
    ),
  },
});
