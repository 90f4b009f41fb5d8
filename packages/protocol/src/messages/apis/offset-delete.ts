import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, int16, int32, string } from '../../schema/types';

/**
 * OffsetDelete (key 47), version 0 (Kafka's only one, never flexible): deletes a group's committed
 * offsets for partitions it no longer consumes. Neither kafkajs 2.2.4 nor librdkafka 2.0.2's
 * consumer sends it; it is here for admin tools. Unlike most responses, the top-level error code
 * comes before the throttle time.
 */
export const OffsetDelete = defineApi({
  apiKey: 47,
  name: 'OffsetDelete',
  versions: '0',
  flexibleVersions: 'none',
  request: {
    groupId: field(string),
    topics: field(
      array(
        struct({
          name: field(string),
          partitions: field(
            array(
              struct({
                partitionIndex: field(int32),
              }),
            ),
          ),
        }),
      ),
    ),
  },
  response: {
    errorCode: field(int16),
    throttleTimeMs: field(int32),
    topics: field(
      array(
        struct({
          name: field(string),
          partitions: field(
            array(
              struct({
                partitionIndex: field(int32),
                errorCode: field(int16),
              }),
            ),
          ),
        }),
      ),
    ),
  },
});
