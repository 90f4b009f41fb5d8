import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, bool, int16, int32, string } from '../../schema/types';

/**
 * Metadata (key 3), versions 1–6. From v1 a null topic list means "all topics" and an empty one
 * means "none"; staying at or below v6 keeps leader epochs out of the protocol (docs/kafka-compat.md §6.5).
 */
export const Metadata = defineApi({
  apiKey: 3,
  name: 'Metadata',
  versions: '1-6',
  flexibleVersions: '9+',
  request: {
    topics: field(array(struct({ name: field(string) })), { nullable: '1+' }),
    allowAutoTopicCreation: field(bool, { versions: '4+', default: true }),
  },
  response: {
    throttleTimeMs: field(int32, { versions: '3+' }),
    brokers: field(
      array(
        struct({
          nodeId: field(int32),
          host: field(string),
          port: field(int32),
          rack: field(string, { versions: '1+', nullable: '1+', default: null }),
        }),
      ),
    ),
    clusterId: field(string, { versions: '2+', nullable: '2+', default: null }),
    controllerId: field(int32, { versions: '1+', default: -1 }),
    topics: field(
      array(
        struct({
          errorCode: field(int16),
          name: field(string),
          isInternal: field(bool, { versions: '1+' }),
          partitions: field(
            array(
              struct({
                errorCode: field(int16),
                partitionIndex: field(int32),
                leaderId: field(int32),
                leaderEpoch: field(int32, { versions: '7+', default: -1 }),
                replicaNodes: field(array(int32)),
                isrNodes: field(array(int32)),
                offlineReplicas: field(array(int32), { versions: '5+' }),
              }),
            ),
          ),
        }),
      ),
    ),
  },
});
