import { defineApi } from '../../../schema/api';
import { field, struct } from '../../../schema/struct';
import { array, int16, int32, int64, string } from '../../../schema/types';

/**
 * WeirDescribePartitions (key 32002, Weir only), version 0: every partition of one topic as the
 * broker holds it: offsets (log start, LEO, high watermark, LSO), size, segments and the number of
 * producers with state. An unknown topic is UNKNOWN_TOPIC_OR_PARTITION at the top level; a
 * partition whose log is offline carries KAFKA_STORAGE_ERROR on its own row.
 */
export const WeirDescribePartitions = defineApi({
  apiKey: 32002,
  name: 'WeirDescribePartitions',
  versions: '0',
  flexibleVersions: '0+',
  request: {
    topic: field(string),
  },
  response: {
    errorCode: field(int16),
    errorMessage: field(string, { nullable: '0+', default: null }),
    partitions: field(
      array(
        struct({
          partitionIndex: field(int32),
          errorCode: field(int16),
          leaderId: field(int32),
          replicaNodes: field(array(int32)),
          isrNodes: field(array(int32)),
          logStartOffset: field(int64),
          logEndOffset: field(int64),
          highWatermark: field(int64),
          lastStableOffset: field(int64),
          sizeBytes: field(int64),
          segments: field(
            array(
              struct({
                baseOffset: field(int64),
                sizeBytes: field(int64),
                maxTimestampMs: field(int64),
              }),
            ),
          ),
          producerCount: field(int32),
        }),
      ),
    ),
  },
});
