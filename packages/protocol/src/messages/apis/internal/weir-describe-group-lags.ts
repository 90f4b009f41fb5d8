import { defineApi } from '../../../schema/api';
import { field, struct } from '../../../schema/struct';
import { array, int16, int32, int64, string } from '../../../schema/types';

/**
 * WeirDescribeGroupLags (key 32003, Weir only), version 0: consumer groups with their state and the
 * lag of every partition they committed or are assigned, computed on the broker in one pass. A
 * null `groupIds` asks for every group. The top-level error is COORDINATOR_LOAD_IN_PROGRESS while
 * groups load; a named group that does not exist carries GROUP_ID_NOT_FOUND on its own row.
 */
export const WeirDescribeGroupLags = defineApi({
  apiKey: 32003,
  name: 'WeirDescribeGroupLags',
  versions: '0',
  flexibleVersions: '0+',
  request: {
    groupIds: field(array(string), { nullable: '0+', default: null }),
  },
  response: {
    errorCode: field(int16),
    errorMessage: field(string, { nullable: '0+', default: null }),
    groups: field(
      array(
        struct({
          groupId: field(string),
          errorCode: field(int16),
          state: field(string),
          protocolType: field(string),
          protocol: field(string),
          memberCount: field(int32),
          totalLag: field(int64),
          partitions: field(
            array(
              struct({
                topic: field(string),
                partitionIndex: field(int32),
                committedOffset: field(int64),
                logEndOffset: field(int64),
                lag: field(int64),
                memberId: field(string, { nullable: '0+', default: null }),
              }),
            ),
          ),
        }),
      ),
    ),
  },
});
