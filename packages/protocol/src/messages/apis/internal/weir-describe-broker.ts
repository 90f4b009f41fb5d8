import { defineApi } from '../../../schema/api';
import { field, struct } from '../../../schema/struct';
import { array, bool, float64, int16, int32, int64, string } from '../../../schema/types';

/**
 * WeirDescribeBroker (key 32000, Weir only), version 0: the broker's identity, readiness checks,
 * counts and recent throughput in one call, for the console's overview. Served only by the
 * internal listener. Weir's own APIs start flexible, as every Kafka API added since KIP-482 does.
 */
export const WeirDescribeBroker = defineApi({
  apiKey: 32000,
  name: 'WeirDescribeBroker',
  versions: '0',
  flexibleVersions: '0+',
  request: {},
  response: {
    errorCode: field(int16),
    errorMessage: field(string, { nullable: '0+', default: null }),
    nodeId: field(int32),
    clusterId: field(string),
    version: field(string),
    startedAtMs: field(int64),
    listeners: field(
      array(
        struct({
          name: field(string),
          host: field(string),
          port: field(int32),
        }),
      ),
    ),
    checks: field(
      array(
        struct({
          name: field(string),
          ok: field(bool),
          detail: field(string),
        }),
      ),
    ),
    /** Topics that are not internal, as the topic list counts them by default. */
    topicCount: field(int32),
    internalTopicCount: field(int32),
    /** The partitions of the topics `topicCount` counts: internal topics' are left out too. */
    partitionCount: field(int32),
    groupCount: field(int32),
    connectionCount: field(int32),
    logSizeBytes: field(int64),
    throughput: field(
      struct({
        windowMs: field(int32),
        bytesInPerSecond: field(float64),
        recordsInPerSecond: field(float64),
        bytesOutPerSecond: field(float64),
        recordsOutPerSecond: field(float64),
        requestsPerSecond: field(float64),
      }),
    ),
  },
});
