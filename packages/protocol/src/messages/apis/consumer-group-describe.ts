import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, bool, int16, int32, string, uuid } from '../../schema/types';

/** An assignment as ConsumerGroupDescribe shows it: topic ids with their names. */
const assignment = struct({
  topicPartitions: field(
    array(
      struct({
        topicId: field(uuid),
        topicName: field(string),
        partitions: field(array(int32)),
      }),
    ),
  ),
});

/**
 * ConsumerGroupDescribe (key 69), version 0: the state of consumer-protocol groups (KIP-848) for
 * admin tools: group epoch, target assignment epoch, the chosen assignor, and each member's epoch,
 * subscription, current and target assignment. Flexible only, like ConsumerGroupHeartbeat.
 */
export const ConsumerGroupDescribe = defineApi({
  apiKey: 69,
  name: 'ConsumerGroupDescribe',
  versions: '0',
  flexibleVersions: '0+',
  request: {
    groupIds: field(array(string)),
    includeAuthorizedOperations: field(bool),
  },
  response: {
    throttleTimeMs: field(int32),
    groups: field(
      array(
        struct({
          errorCode: field(int16),
          errorMessage: field(string, { nullable: '0+', default: null }),
          groupId: field(string),
          groupState: field(string),
          groupEpoch: field(int32),
          assignmentEpoch: field(int32),
          assignorName: field(string),
          members: field(
            array(
              struct({
                memberId: field(string),
                instanceId: field(string, { nullable: '0+', default: null }),
                rackId: field(string, { nullable: '0+', default: null }),
                memberEpoch: field(int32),
                clientId: field(string),
                clientHost: field(string),
                subscribedTopicNames: field(array(string)),
                subscribedTopicRegex: field(string, { nullable: '0+', default: null }),
                assignment: field(assignment),
                targetAssignment: field(assignment),
              }),
            ),
          ),
          /** A bit field of ACL operations; INT32_MIN means "not requested". */
          authorizedOperations: field(int32, { default: -2147483648 }),
        }),
      ),
    ),
  },
});
