import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, int16, int32, string } from '../../schema/types';

/**
 * AlterPartitionReassignments (key 45), version 0 (KIP-455): starts, replaces or (with null
 * replicas) cancels the move of each named partition to a target replica list. Kafka has no
 * non-flexible version, so v0 is defined flexible and served on the internal listener only.
 */
export const AlterPartitionReassignments = defineApi({
  apiKey: 45,
  name: 'AlterPartitionReassignments',
  versions: '0',
  flexibleVersions: '0+',
  request: {
    timeoutMs: field(int32, { default: 60000 }),
    topics: field(
      array(
        struct({
          name: field(string),
          partitions: field(
            array(
              struct({
                partitionIndex: field(int32),
                replicas: field(array(int32), { nullable: '0+', default: null }),
              }),
            ),
          ),
        }),
      ),
    ),
  },
  response: {
    throttleTimeMs: field(int32),
    errorCode: field(int16),
    errorMessage: field(string, { nullable: '0+', default: null }),
    responses: field(
      array(
        struct({
          name: field(string),
          partitions: field(
            array(
              struct({
                partitionIndex: field(int32),
                errorCode: field(int16),
                errorMessage: field(string, { nullable: '0+', default: null }),
              }),
            ),
          ),
        }),
      ),
    ),
  },
});
