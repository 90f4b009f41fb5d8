import { defineApi } from '../../../schema/api';
import { field, struct } from '../../../schema/struct';
import { array, bool, int16, int32, int64, string } from '../../../schema/types';

/**
 * WeirListTopicSummaries (key 32001, Weir only), version 0: one page of the topic list with sizes,
 * message counts and the lag of every group that committed offsets on each topic. Search, sort and
 * paging happen on the broker so the console never pulls thousands of topics to show fifty.
 * `sortBy` is one of "name", "partitions", "sizeBytes" or "messages"; anything else, or a limit
 * outside 1–1,000, is INVALID_REQUEST.
 */
export const WeirListTopicSummaries = defineApi({
  apiKey: 32001,
  name: 'WeirListTopicSummaries',
  versions: '0',
  flexibleVersions: '0+',
  request: {
    search: field(string),
    includeInternal: field(bool),
    sortBy: field(string, { default: 'name' }),
    descending: field(bool),
    offset: field(int32),
    limit: field(int32),
  },
  response: {
    errorCode: field(int16),
    errorMessage: field(string, { nullable: '0+', default: null }),
    totalCount: field(int32),
    topics: field(
      array(
        struct({
          name: field(string),
          internal: field(bool),
          partitionCount: field(int32),
          replicationFactor: field(int16),
          sizeBytes: field(int64),
          messageCount: field(int64),
          groups: field(
            array(
              struct({
                groupId: field(string),
                lag: field(int64),
              }),
            ),
          ),
        }),
      ),
    ),
  },
});
