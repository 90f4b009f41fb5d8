import { ConsumerGroupDescribe } from '@weir/protocol';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.ConsumerGroupDescribe;

/** "Not requested", Kafka's value for authorized operations the client did not ask for. */
const OPERATIONS_NOT_REQUESTED = -2_147_483_648;

/**
 * ConsumerGroupDescribe v0 (KIP-848): each consumer-protocol group's state, group epoch, target
 * assignment epoch, assignor and members with their epochs, subscriptions and current and target
 * partitions. A classic or unknown group is GROUP_ID_NOT_FOUND, as in Kafka 3.9. Needs DESCRIBE on
 * the group (else a GROUP_AUTHORIZATION_FAILED row); the authorized operations are reported when
 * asked.
 */
export const consumerGroupDescribeHandler = defineHandler({
  api: ConsumerGroupDescribe,
  versions: { min: 0, max: 0 },
  async handle(request, context, services) {
    const { access } = context;
    return {
      throttleTimeMs: 0,
      groups: request.groupIds.map((groupId) => {
        if (!access.allows(RULES.group, groupId)) {
          return {
            errorCode: RULES.group.denied,
            errorMessage: null,
            groupId,
            groupState: '',
            groupEpoch: 0,
            assignmentEpoch: 0,
            assignorName: '',
            members: [],
            authorizedOperations: OPERATIONS_NOT_REQUESTED,
          };
        }
        const described = services.groups.consumerGroupDescribe(groupId);
        return {
          ...described,
          authorizedOperations:
            request.includeAuthorizedOperations && described.errorCode === 0
              ? access.authorizedOperations('GROUP', groupId, ['READ', 'DELETE', 'DESCRIBE'])
              : OPERATIONS_NOT_REQUESTED,
        };
      }),
    };
  },
});
