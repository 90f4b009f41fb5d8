import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, bool, bytes, int16, int32, string } from '../../schema/types';

/**
 * DescribeGroups (key 15), versions 0–4: the state, protocol and members of consumer groups, for
 * admin tools. kafkajs uses up to v2 and librdkafka's admin API up to v4 (its legacy group listing
 * pins v0); v3 adds authorized operations, v4 static instance ids, and v5 is flexible
 * (docs/kafka-compat.md §3).
 */
export const DescribeGroups = defineApi({
  apiKey: 15,
  name: 'DescribeGroups',
  versions: '0-4',
  flexibleVersions: '5+',
  request: {
    groups: field(array(string)),
    includeAuthorizedOperations: field(bool, { versions: '3+' }),
  },
  response: {
    throttleTimeMs: field(int32, { versions: '1+' }),
    groups: field(
      array(
        struct({
          errorCode: field(int16),
          groupId: field(string),
          groupState: field(string),
          protocolType: field(string),
          protocolData: field(string),
          members: field(
            array(
              struct({
                memberId: field(string),
                groupInstanceId: field(string, { versions: '4+', nullable: '4+', default: null }),
                clientId: field(string),
                clientHost: field(string),
                memberMetadata: field(bytes),
                memberAssignment: field(bytes),
              }),
            ),
          ),
          /** A bit field of ACL operations; INT32_MIN means "not requested". */
          authorizedOperations: field(int32, { versions: '3+', default: -2147483648 }),
        }),
      ),
    ),
  },
});
