import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, int16, int32, string } from '../../schema/types';

/**
 * ListPartitionReassignments (key 46), version 0 (KIP-455): the moves in progress, for the named
 * partitions or (null topics) all of them. Flexible only in Kafka, so internal listener only.
 */
export const ListPartitionReassignments = defineApi({
  apiKey: 46,
  name: 'ListPartitionReassignments',
  versions: '0',
  flexibleVersions: '0+',
  request: {
    timeoutMs: field(int32, { default: 60000 }),
    topics: field(
      array(
        struct({
          name: field(string),
          partitionIndexes: field(array(int32)),
        }),
      ),
      { nullable: '0+', default: null },
    ),
  },
  response: {
    throttleTimeMs: field(int32),
    errorCode: field(int16),
    errorMessage: field(string, { nullable: '0+', default: null }),
    topics: field(
      array(
        struct({
          name: field(string),
          partitions: field(
            array(
              struct({
                partitionIndex: field(int32),
                replicas: field(array(int32)),
                addingReplicas: field(array(int32)),
                removingReplicas: field(array(int32)),
              }),
            ),
          ),
        }),
      ),
    ),
  },
});
