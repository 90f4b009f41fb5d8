import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, bool, int16, int32, string, uuid } from '../../schema/types';

/**
 * Metadata (key 3), versions 0–12, flexible from v9. In v0 an empty topic list means "all topics";
 * from v1 a null list means "all topics" and an empty one means "none"; v7 adds each partition's
 * leader epoch, which clients then send back as `current_leader_epoch` (docs/kafka-compat.md §6.5);
 * v8 the authorized operations of each topic and of the cluster, when asked for. v10 adds topic ids
 * (what KIP-848 assignments name topics by), v11 drops the cluster's authorized operations and
 * v12 lets a request name a topic by id alone (a null name), answered with a null name only where
 * the id is unknown.
 */
export const Metadata = defineApi({
  apiKey: 3,
  name: 'Metadata',
  versions: '0-12',
  flexibleVersions: '9+',
  request: {
    topics: field(
      array(
        struct({
          topicId: field(uuid, { versions: '10+' }),
          name: field(string, { nullable: '10+' }),
        }),
      ),
      { nullable: '1+' },
    ),
    allowAutoTopicCreation: field(bool, { versions: '4+', default: true }),
    includeClusterAuthorizedOperations: field(bool, { versions: '8-10', default: false }),
    includeTopicAuthorizedOperations: field(bool, { versions: '8+', default: false }),
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
          name: field(string, { nullable: '12+' }),
          topicId: field(uuid, { versions: '10+' }),
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
          topicAuthorizedOperations: field(int32, { versions: '8+', default: -2147483648 }),
        }),
      ),
    ),
    clusterAuthorizedOperations: field(int32, { versions: '8-10', default: -2147483648 }),
  },
});
