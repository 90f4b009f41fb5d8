import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, int8, int16, int32, string } from '../../schema/types';

/**
 * ElectLeaders (key 43), versions 0–2 (KIP-183, KIP-460): a preferred (type 0) or unclean (type 1)
 * leader election for the named partitions, or all of them when null. v0 has no election type (it
 * is preferred) and no top-level error code; v2 is the first flexible version.
 */
export const ElectLeaders = defineApi({
  apiKey: 43,
  name: 'ElectLeaders',
  versions: '0-2',
  flexibleVersions: '2+',
  request: {
    electionType: field(int8, { versions: '1+', default: 0 }),
    topicPartitions: field(
      array(
        struct({
          topic: field(string),
          partitions: field(array(int32)),
        }),
      ),
      { nullable: '0+', default: null },
    ),
    timeoutMs: field(int32, { default: 60000 }),
  },
  response: {
    throttleTimeMs: field(int32),
    errorCode: field(int16, { versions: '1+', default: 0 }),
    replicaElectionResults: field(
      array(
        struct({
          topic: field(string),
          partitionResult: field(
            array(
              struct({
                partitionId: field(int32),
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
