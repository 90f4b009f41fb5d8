import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, int16, int32, int64, string } from '../../schema/types';

/**
 * DeleteRecords (key 21), versions 0–1: what kafkajs's admin `deleteTopicRecords` speaks; v2 is
 * flexible. Both versions share one layout; v1 only changes how clients treat the throttle time.
 */
export const DeleteRecords = defineApi({
  apiKey: 21,
  name: 'DeleteRecords',
  versions: '0-1',
  flexibleVersions: '2+',
  request: {
    topics: field(
      array(
        struct({
          name: field(string),
          partitions: field(
            array(
              struct({
                partitionIndex: field(int32),
                offset: field(int64),
              }),
            ),
          ),
        }),
      ),
    ),
    timeoutMs: field(int32),
  },
  response: {
    throttleTimeMs: field(int32),
    topics: field(
      array(
        struct({
          name: field(string),
          partitions: field(
            array(
              struct({
                partitionIndex: field(int32),
                lowWatermark: field(int64),
                errorCode: field(int16),
              }),
            ),
          ),
        }),
      ),
    ),
  },
});
